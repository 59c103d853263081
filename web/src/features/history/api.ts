/** `GET /api/history` (D290–D292): today in history for the reader's date, place and language. */
import type { components } from '../../lib/api/schema';

export const HISTORY_PATH = '/history';

type Schemas = components['schemas'];
export type HistoryDay = Schemas['HistoryDay'];
export type HistorySection = Schemas['HistorySection'];
export type HistoryEntry = Schemas['HistoryEntry'];
export type HistoryPage = Schemas['HistoryPage'];

/** "2026-11-25" as the reader's language writes a day of the year ("November 25"). */
export function historyDateLabel(date: string, locale: string): string {
  const [year, month, day] = date.split('-').map(Number);
  if (!year || !month || !day) return date;
  return new Intl.DateTimeFormat(locale, { month: 'long', day: 'numeric', timeZone: 'UTC' }).format(
    new Date(Date.UTC(year, month - 1, day)),
  );
}

/** Whether the day has no entry at all. */
export function isEmptyDay(day: HistoryDay): boolean {
  return day.sections.every((s) => s.entries.length === 0);
}
