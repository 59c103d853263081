/** SPEC §5.4 parse helpers for loosely typed server values. */

/** Numbers that fail to parse become 0. */
export function toNumber(value: unknown): number {
  if (typeof value === 'number') return Number.isFinite(value) ? value : 0;
  if (typeof value === 'string' && value.trim() !== '') {
    const n = Number(value);
    return Number.isFinite(n) ? n : 0;
  }
  return 0;
}

/** Booleans are true for 'true' or '1' (and the values true and 1 themselves). */
export function toBoolean(value: unknown): boolean {
  return value === true || value === 1 || value === 'true' || value === '1';
}

/** Dates from digits are milliseconds since the epoch; other text goes through Date parsing. */
export function toDate(value: unknown): Date | null {
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? null : value;
  if (typeof value === 'number') return Number.isFinite(value) ? new Date(value) : null;
  if (typeof value !== 'string' || value.trim() === '') return null;
  const text = value.trim();
  const date = /^\d+$/.test(text) ? new Date(Number(text)) : new Date(text);
  return Number.isNaN(date.getTime()) ? null : date;
}

/** SPEC §3.1: timestamps under 1e12 are seconds and become milliseconds. */
export function toMillis(value: unknown): number {
  const n = toNumber(value);
  return n > 0 && n < 1e12 ? n * 1000 : n;
}

export function toText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return '';
}
