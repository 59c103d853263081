/** Ranges of UTC days for the usage view (D335: `YYYY-MM-DD`, both ends included). */
import type { UsageRange } from './api';

const DAY_MS = 86_400_000;

/** The server's longest range, in days (`operator::MAX_RANGE_DAYS`). */
export const MAX_RANGE_DAYS = 366;
export const RANGE_PRESETS = [7, 30, 90] as const;
export const DEFAULT_PRESET = 30;

export function utcDay(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

/** The last `days` UTC days, ending today. */
export function lastDays(days: number, now: number = Date.now()): UsageRange {
  return { from: utcDay(now - (days - 1) * DAY_MS), to: utcDay(now) };
}

/** Which preset a range is, if it is one (ending today). */
export function presetOf(range: UsageRange, now: number = Date.now()): number | null {
  return (
    RANGE_PRESETS.find((days) => {
      const preset = lastDays(days, now);
      return preset.from === range.from && preset.to === range.to;
    }) ?? null
  );
}
