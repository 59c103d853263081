import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

// Read from disk: Vitest's own CSS handling hands tests empty style sheets.
const srcDir = join(process.cwd(), 'src');
const sheets = Object.fromEntries(
  readdirSync(srcDir, { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.css'))
    .map((file) => [file, readFileSync(join(srcDir, file), 'utf8')]),
);

const PHYSICAL =
  /(?:^|[\s;{])(?:(?:margin|padding|border)-(?:left|right|top|bottom)|left|right|top|bottom|width|height|(?:min|max)-(?:width|height)|float|clear)\s*:|text-align\s*:\s*(?:left|right)/m;

describe('CSS for left-to-right and right-to-left layouts (§1.7)', () => {
  it('finds the style sheets', () => {
    expect(Object.keys(sheets).length).toBeGreaterThanOrEqual(2);
    for (const css of Object.values(sheets)) expect(css.length).toBeGreaterThan(100);
  });

  it('§1.7 uses logical properties only, so right-to-left layouts mirror', () => {
    for (const [file, css] of Object.entries(sheets)) {
      const withoutComments = css.replace(/\/\*[\s\S]*?\*\//g, '');
      const match = PHYSICAL.exec(withoutComments);
      expect(match?.[0], file).toBeUndefined();
    }
  });

  it('has light and dark themes from prefers-color-scheme', () => {
    const all = Object.values(sheets).join('\n');
    expect(all).toContain('@media (prefers-color-scheme: dark)');
    expect(all).toMatch(/:focus-visible\s*{[^}]*outline/);
  });

  it('§9.7 popups sit at the top, 16 px from the edge, at z-index 2000', () => {
    const popup = sheets[Object.keys(sheets).find((f) => f.endsWith('popup.css'))!];
    const rule = /\.popups\s*{([^}]*)}/.exec(popup)?.[1] ?? '';
    expect(rule).toMatch(/position:\s*fixed/);
    expect(rule).toMatch(/inset-block-start:\s*var\(--popup-offset,\s*16px\)/);
    expect(rule).toMatch(/z-index:\s*2000/);
  });
});
