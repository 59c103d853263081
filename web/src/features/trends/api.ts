/** `GET /api/trends` (D300–D302): the reader's country's trends, read defensively. */
import type { components } from '../../lib/api/schema';
import { normalizeNewsItem, type NewsItem } from '../../lib/news';

export const TRENDS_PATH = '/trends';

/** A trend with its cards as the app reads them (`reason` may be null, D385). */
export type Trend = Omit<components['schemas']['TrendDoc'], 'list'> & { list: NewsItem[] };
export type TrendsPage = Omit<components['schemas']['TrendsPage'], 'trends'> & { trends: Trend[] };

type Raw = Record<string, unknown>;
const record = (value: unknown): Raw => (value && typeof value === 'object' ? (value as Raw) : {});
const numbers = (value: unknown): number[] =>
  Array.isArray(value) ? value.map((n) => (typeof n === 'number' ? n : 0)) : [];

export function readTrend(raw: unknown): Trend {
  const r = record(raw);
  return {
    phrase: String(r.phrase ?? ''),
    key: String(r.key ?? ''),
    recent: Number(r.recent ?? 0),
    publishers: Number(r.publishers ?? 0),
    sparkline: numbers(r.sparkline),
    news_ids: numbers(r.news_ids),
    list: Array.isArray(r.list) ? r.list.map(normalizeNewsItem) : [],
  };
}

export function readTrendsPage(raw: unknown): TrendsPage {
  const r = record(raw);
  return {
    scope: String(r.scope ?? 'country'),
    made_at: Number(r.made_at ?? 0),
    trends: Array.isArray(r.trends) ? r.trends.map(readTrend).filter((t) => t.key) : [],
  };
}
