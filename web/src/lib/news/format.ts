/** Display helpers for news: relative times, accent-insensitive highlighting. */

/** Formatters are costly to build and a feed shows dozens of times: one per locale. */
const relativeFormats = new Map<string, Intl.RelativeTimeFormat>();
const dateFormats = new Map<string, Intl.DateTimeFormat>();

function relativeFormat(locale: string): Intl.RelativeTimeFormat {
  let format = relativeFormats.get(locale);
  if (!format) {
    format = new Intl.RelativeTimeFormat(locale, { numeric: 'auto' });
    relativeFormats.set(locale, format);
  }
  return format;
}

function dateFormat(locale: string, withTime: boolean): Intl.DateTimeFormat {
  const key = `${locale}|${withTime}`;
  let format = dateFormats.get(key);
  if (!format) {
    format = new Intl.DateTimeFormat(locale, {
      dateStyle: 'medium',
      ...(withTime ? { timeStyle: 'short' } : {}),
    });
    dateFormats.set(key, format);
  }
  return format;
}

/**
 * "5 minutes ago", "hace 3 horas", "il y a 2 jours"; under a minute "now" in the
 * locale's words; older than a week, the date. A time in the future is clock skew and
 * reads "now"; no time (0 or less) gives no words. Shared fixture:
 * `shared/fixtures/relative-time.json` (D235).
 */
export function relativeTime(ms: number, locale: string, now: number = Date.now()): string {
  if (!(ms > 0)) return '';
  const rtf = relativeFormat(locale);
  const seconds = Math.max(0, Math.trunc((now - ms) / 1000));
  if (seconds < 60) return rtf.format(0, 'second');
  const minutes = Math.trunc(seconds / 60);
  if (minutes < 60) return rtf.format(-minutes, 'minute');
  const hours = Math.trunc(minutes / 60);
  if (hours < 24) return rtf.format(-hours, 'hour');
  const days = Math.trunc(hours / 24);
  if (days < 7) return rtf.format(-days, 'day');
  return fullDate(ms, locale, { withTime: false });
}

export function fullDate(
  ms: number,
  locale: string,
  { withTime = true }: { withTime?: boolean } = {},
): string {
  return dateFormat(locale, withTime).format(new Date(ms));
}

/**
 * The host of a link as "read the original" names it: the URL parser's host (lower case,
 * IDN in ASCII form, no credentials, no default port) without one leading `www.`; '' when
 * `url` is not an absolute URL. Shared fixture: `shared/fixtures/host.json` (D235).
 */
export function hostOf(url: string): string {
  try {
    return new URL(url).host.replace(/^www\./, '');
  } catch {
    return '';
  }
}

/** Lower case without accents, as the search API folds its terms. */
export function fold(text: string): string {
  return text.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
}

/**
 * Folds `text` character by character and keeps, for each folded position, the index of
 * the original character it came from, so matches in the folded text map back.
 */
function foldWithMap(text: string): { folded: string; map: number[] } {
  let folded = '';
  const map: number[] = [];
  let index = 0;
  for (const char of text) {
    const f = fold(char);
    for (let i = 0; i < f.length; i++) map.push(index);
    folded += f;
    index += char.length;
  }
  map.push(index);
  return { folded, map };
}

const WORD = /[\p{L}\p{N}]/u;

export interface TextPart {
  text: string;
  match: boolean;
}

/**
 * Splits `text` into plain and matching parts for the search terms, ignoring case and
 * accents. A term matches at the start of a word, and the match runs to the end of that
 * word (so "vote" marks "votes", "ecole" marks "École"). Shared fixture:
 * `shared/fixtures/highlight.json` (D235).
 */
export function highlightParts(text: string, terms: readonly string[]): TextPart[] {
  const wanted = [...new Set(terms.map((t) => fold(t.trim())).filter(Boolean))];
  if (!text || wanted.length === 0) return text ? [{ text, match: false }] : [];
  const { folded, map } = foldWithMap(text);
  const ranges: Array<[number, number]> = [];
  for (const term of wanted) {
    let from = 0;
    for (;;) {
      const at = folded.indexOf(term, from);
      if (at < 0) break;
      from = at + 1;
      if (at > 0 && WORD.test(folded[at - 1])) continue;
      let end = at + term.length;
      while (end < folded.length && WORD.test(folded[end])) end++;
      ranges.push([map[at], map[end]]);
    }
  }
  if (ranges.length === 0) return [{ text, match: false }];
  ranges.sort((a, b) => a[0] - b[0]);
  const merged: Array<[number, number]> = [];
  for (const range of ranges) {
    const last = merged[merged.length - 1];
    if (last && range[0] <= last[1]) last[1] = Math.max(last[1], range[1]);
    else merged.push([...range]);
  }
  const parts: TextPart[] = [];
  let cursor = 0;
  for (const [start, end] of merged) {
    if (start > cursor) parts.push({ text: text.slice(cursor, start), match: false });
    parts.push({ text: text.slice(start, end), match: true });
    cursor = end;
  }
  if (cursor < text.length) parts.push({ text: text.slice(cursor), match: false });
  return parts;
}
