/** Times in the feeds table: "5 minutes ago" / "in 10 minutes", in the page's language. */

/** "in 5 minutes", "dans 2 heures"; a time not in the future gives ''. */
export function timeUntil(ms: number, locale: string, now: number = Date.now()): string {
  const seconds = Math.trunc((ms - now) / 1000);
  if (seconds <= 0) return '';
  const rtf = new Intl.RelativeTimeFormat(locale, { numeric: 'always' });
  const minutes = Math.max(1, Math.round(seconds / 60));
  if (minutes < 60) return rtf.format(minutes, 'minute');
  const hours = Math.round(minutes / 60);
  if (hours < 24) return rtf.format(hours, 'hour');
  return rtf.format(Math.round(hours / 24), 'day');
}
