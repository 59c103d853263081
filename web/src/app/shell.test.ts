import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import html from '../../index.html?raw';

const count = (text: string) => html.split(text).length - 1;

describe('D20 the page shell contract with the server', () => {
  it('has the three markers exactly once, each in its place', () => {
    expect(count('<html lang="en" dir="ltr">')).toBe(1);
    expect(count('<!--lw:head-->')).toBe(1);
    expect(count('<!--lw:payload-->')).toBe(1);
    const head = html.slice(html.indexOf('<head>'), html.indexOf('</head>'));
    expect(head).toContain('<!--lw:head-->');
    const body = html.slice(html.indexOf('<body>'), html.indexOf('</body>'));
    expect(body.indexOf('<!--lw:payload-->')).toBeGreaterThan(-1);
    expect(body.indexOf('<!--lw:payload-->')).toBeLessThan(body.indexOf('<script type="module"'));
  });

  it('has no <title> (the server writes it) and nothing inline for the CSP', () => {
    expect(html).not.toMatch(/<title/i);
    expect(html).not.toMatch(/<style/i);
    expect(html).not.toMatch(/\sstyle=/i);
    for (const script of html.match(/<script\b[^>]*>/gi) ?? []) {
      expect(script).toMatch(/\bsrc=/);
    }
  });
});

describe('issue 31 the app installs: its manifest and icons (D379)', () => {
  // Vitest runs in web/ (as the golden test reads its files).
  const publicDir = join(process.cwd(), 'public');
  const manifest = JSON.parse(readFileSync(join(publicDir, 'manifest.webmanifest'), 'utf8')) as {
    name: string;
    short_name: string;
    start_url: string;
    display: string;
    icons: { src: string; sizes: string; type: string; purpose: string }[];
  };

  it('the shell links the manifest', () => {
    expect(count('<link rel="manifest" href="/manifest.webmanifest" />')).toBe(1);
    expect(count('<link rel="apple-touch-icon" href="/icons/apple-touch-icon.png" />')).toBe(1);
  });

  it('names the app, opens at home, standalone, with 192 and 512 px and a maskable icon', () => {
    expect(manifest.name).toBe('Localwire');
    expect(manifest.short_name.length).toBeLessThanOrEqual(12);
    expect(manifest.start_url).toBe('/');
    expect(manifest.display).toBe('standalone');
    const sizes = manifest.icons.map((i) => `${i.sizes} ${i.purpose}`);
    expect(sizes).toEqual(['192x192 any', '512x512 any', '512x512 maskable']);
  });

  it('every icon it names is a PNG of the size it says', () => {
    for (const icon of manifest.icons) {
      const png = readFileSync(join(publicDir, icon.src));
      expect(png.subarray(1, 4).toString('latin1'), icon.src).toBe('PNG');
      // IHDR: width and height, big-endian, at bytes 16 and 20.
      const [w, h] = icon.sizes.split('x').map(Number);
      expect([png.readUInt32BE(16), png.readUInt32BE(20)], icon.src).toEqual([w, h]);
    }
  });
});
