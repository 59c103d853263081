/** How the forecast's numbers and times read (the city's time zone, the reader's locale). */
import type { WeatherDoc } from './api';

type Units = WeatherDoc['units'];

export function temperature(value: number, units: Units): string {
  return `${Math.round(value)}${units.temperature}`;
}

export function speed(value: number, units: Units): string {
  return `${Math.round(value)} ${units.wind_speed}`;
}

export function amount(value: number, units: Units): string {
  return `${value} ${units.precipitation}`;
}

const formats = new Map<string, Intl.DateTimeFormat>();

function format(locale: string, timeZone: string, options: Intl.DateTimeFormatOptions) {
  const key = `${locale}|${timeZone}|${JSON.stringify(options)}`;
  let f = formats.get(key);
  if (!f) {
    try {
      f = new Intl.DateTimeFormat(locale, { ...options, timeZone });
    } catch {
      // A zone this browser does not know: UTC rather than nothing.
      f = new Intl.DateTimeFormat(locale, { ...options, timeZone: 'UTC' });
    }
    formats.set(key, f);
  }
  return f;
}

/** "2 PM", "14 h": an hour of the 48-hour list, in the city's time zone. */
export function hourOf(ms: number, timeZone: string, locale: string): string {
  return format(locale, timeZone, { hour: 'numeric' }).format(ms);
}

/** "7:02 AM": sunrise, sunset, the time of the reading. */
export function timeOf(ms: number, timeZone: string, locale: string): string {
  return format(locale, timeZone, { hour: 'numeric', minute: '2-digit' }).format(ms);
}

/** "Wednesday": a day of the 7-day list, from its local date (YYYY-MM-DD). */
export function weekdayOf(date: string, locale: string): string {
  return format(locale, 'UTC', { weekday: 'long' }).format(new Date(`${date}T12:00:00Z`));
}

/** "Wed, Nov 25, 10:00 PM": an alert's start or end, in the city's time zone. */
export function dateTimeOf(ms: number, timeZone: string, locale: string): string {
  return format(locale, timeZone, {
    weekday: 'short',
    month: 'short',
    day: 'numeric',
    hour: 'numeric',
    minute: '2-digit',
  }).format(ms);
}
