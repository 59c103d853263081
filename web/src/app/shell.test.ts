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
