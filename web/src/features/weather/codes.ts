/**
 * WMO weather interpretation codes (the `weather_code` of Open-Meteo's answers) as words
 * and icons (D283). Every icon is shown with its words, so it needs no text of its own.
 */

/** The codes Open-Meteo uses; any other reads as "unknown conditions". */
export const WMO_CODES = [
  0, 1, 2, 3, 45, 48, 51, 53, 55, 56, 57, 61, 63, 65, 66, 67, 71, 73, 75, 77, 80, 81, 82, 85, 86,
  95, 96, 99,
] as const;

/** The catalogue key of a code's words. */
export function codeKey(code: number): string {
  return (WMO_CODES as readonly number[]).includes(code)
    ? `Weather_Code_${code}`
    : 'Weather_Code_unknown';
}

/** An icon for a code, by day or by night (clear and partly cloudy skies differ). */
export function codeIcon(code: number, isDay: boolean): string {
  if (code === 0) return isDay ? '☀️' : '🌙';
  if (code === 1 || code === 2) return isDay ? '🌤️' : '☁️';
  if (code === 3) return '☁️';
  if (code === 45 || code === 48) return '🌫️';
  if (code >= 51 && code <= 57) return '🌦️';
  if (code >= 61 && code <= 67) return '🌧️';
  if ((code >= 71 && code <= 77) || code === 85 || code === 86) return '🌨️';
  if (code >= 80 && code <= 82) return isDay ? '🌦️' : '🌧️';
  if (code >= 95) return '⛈️';
  return '🌡️';
}
