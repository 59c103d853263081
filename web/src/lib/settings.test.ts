import { describe, expect, it } from 'vitest';
import { createAppSettings, formatVisit, memoryCookieJar } from './settings';

describe('§3.5 app settings', () => {
  it('§3.5 app settings are cookies kept for 30 days, named as the spec keys', () => {
    const jar = memoryCookieJar();
    const settings = createAppSettings(jar);
    settings.set('deviceId', 'd1');
    settings.set('cityId', 42);
    expect(jar.written).toEqual([
      { name: 'deviceId', value: 'd1', days: 30 },
      { name: 'cityId', value: '42', days: 30 },
    ]);
    expect(settings.get('cityId')).toBe('42');
  });

  it('§3.5 app settings reach document.cookie with SameSite=Lax', () => {
    const settings = createAppSettings();
    settings.set('token', 'abc');
    expect(document.cookie).toContain('token=abc');
    expect(settings.get('token')).toBe('abc');
  });

  it('§9.4 the stored locale code lives 365 days and only holds a product pair', () => {
    const jar = memoryCookieJar();
    const settings = createAppSettings(jar);
    expect(settings.storedLocale()).toBeNull();
    settings.storeLocale('fr_CA');
    expect(jar.written).toEqual([{ name: 'lw_locale', value: 'fr_CA', days: 365 }]);
    expect(settings.storedLocale()).toBe('fr_CA');
    jar.set('lw_locale', 'de_DE', { days: 1 });
    expect(settings.storedLocale()).toBeNull();
  });

  it('§4.8 the temperature unit defaults to F and toggles between F and C', () => {
    const settings = createAppSettings(memoryCookieJar());
    expect(settings.temperatureUnit()).toBe('F');
    expect(settings.toggleTemperatureUnit()).toBe('C');
    expect(settings.get('tu')).toBe('C');
    expect(settings.toggleTemperatureUnit()).toBe('F');
  });

  it('D280 a reader in Canada who never chose starts with C; a choice wins everywhere', () => {
    const jar = memoryCookieJar();
    const settings = createAppSettings(jar);
    settings.set('iso', 'CA');
    expect(settings.temperatureUnit()).toBe('C');
    expect(settings.toggleTemperatureUnit()).toBe('F');
    expect(settings.temperatureUnit()).toBe('F');
    settings.set('iso', 'US');
    settings.remove('tu');
    expect(settings.temperatureUnit()).toBe('F');
  });

  it('§4.9 the last visit can be set to now and is shown as YYYY-MM-DD', () => {
    const settings = createAppSettings(memoryCookieJar());
    const now = new Date(2024, 6, 4, 15, 30).getTime();
    settings.markVisit(now);
    expect(settings.get('visit')).toBe(String(now));
    expect(formatVisit(settings.get('visit'))).toBe('2024-07-04');
    expect(formatVisit(undefined)).toBe('');
  });
});
