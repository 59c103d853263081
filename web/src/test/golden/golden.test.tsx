/**
 * The golden test of the first screen (D230, D424). The server renders the first screen
 * with the app's own components in its JavaScript engine (QuickJS, crates/render), from
 * `dist/.server/first-screen.js`; this test renders the same cases with the same code in
 * Node (V8), and the markup must be the same, byte for byte. What it guards is the
 * engine: QuickJS with `src/ssr/engine.ts` (its own Intl, URL, timers) must write what a
 * browser engine writes.
 *
 * Each case is `<case>.json` here: what the server passes for a page (its URL, clock,
 * cookies and inlined payload, `FirstScreenInput`). `<case>.html` beside it is what the
 * server's engine wrote for it, committed: the cargo test `first_screen::golden` fails
 * when QuickJS writes something else, and this test fails when V8 does. After a change
 * to a screen: `npm run build`, then `UPDATE_GOLDEN=1 cargo nextest run -p api golden`
 * rewrites the .html files, then run this test.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { loadLocale } from '../../i18n';
import { FIRST_SCREEN_CARDS } from '../../lib/firstScreen';
import { renderFirstScreen, type FirstScreenInput } from '../../ssr/render';

const DIR = join(process.cwd(), 'src/test/golden');

const cases = readdirSync(DIR)
  .filter((file) => file.endsWith('.json'))
  .map((file) => file.replace(/\.json$/, ''))
  .sort();

function readCase(name: string): FirstScreenInput & { note: string } {
  return JSON.parse(readFileSync(join(DIR, `${name}.json`), 'utf8')) as FirstScreenInput & {
    note: string;
  };
}

describe('D230 golden: the server engine writes the first screen V8 writes', () => {
  beforeAll(() => {
    // Dates are written in UTC on the server (it does not know the reader's zone).
    vi.stubEnv('TZ', 'UTC');
  });
  afterAll(async () => {
    vi.unstubAllEnvs();
    await loadLocale('en');
  });

  it('has cases', () => {
    expect(cases.length).toBeGreaterThanOrEqual(10);
  });

  it('D156 a paging list shows its first cards without "Load more" or loading sweeps', async () => {
    const c = readCase('latest-es');
    const list = (c.payload as { data: { list: unknown[] } }).data.list;
    expect(list.length).toBeGreaterThan(FIRST_SCREEN_CARDS);
    const html = await renderFirstScreen(c);
    expect(html.match(/<article class="news-card /g)).toHaveLength(FIRST_SCREEN_CARDS);
    expect(html).not.toContain('load-more');
    expect(html).not.toContain('news-image__marker');
  });

  it.each(cases)('%s', async (name) => {
    const c = readCase(name);
    const html = await renderFirstScreen(c);
    expect(html, `${name}: ${c.note}`).toBe(readFileSync(join(DIR, `${name}.html`), 'utf8'));
  });
});
