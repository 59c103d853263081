import i18next from 'i18next';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Locale } from '../lib/locale';
import { applyDocumentLocale, elide, loadLocale } from '.';

afterEach(async () => {
  await loadLocale('en');
});

describe('§4.10 locale loading', () => {
  it('§4.10 on change the messages load and <html lang dir> follows', async () => {
    await loadLocale('es');
    expect(i18next.language).toBe('es');
    expect(i18next.t('Web_Back')).toBe('Volver al inicio');
    expect(document.documentElement.lang).toBe('es');
    expect(document.documentElement.dir).toBe('ltr');
  });

  it('§1.7 a right-to-left language sets dir="rtl"', () => {
    applyDocumentLocale('ar');
    expect(document.documentElement.dir).toBe('rtl');
    applyDocumentLocale('en');
    expect(document.documentElement.dir).toBe('ltr');
  });

  it("§8.6 a catalogue that fails to load is logged 'Failed locale loading'", async () => {
    const log = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    await loadLocale('fr');
    await loadLocale('xx' as Locale);
    expect(log).toHaveBeenCalledWith('Failed locale loading', expect.any(Error));
    expect(i18next.language).toBe('fr');
  });

  it('D150 French elides "de" and "que" before a vowel in messages with values', async () => {
    await loadLocale('fr');
    expect(i18next.t('Section_Local', { city: 'Ottawa, ON' })).toBe('Près d’Ottawa, ON');
    expect(i18next.t('Section_Local', { city: 'Édimbourg' })).toBe('Près d’Édimbourg');
    expect(i18next.t('Section_Local', { city: 'Montréal, QC' })).toBe('Près de Montréal, QC');
    expect(i18next.t('User_Greeting', { name: 'Alice' })).toBe('Connecté en tant qu’Alice');
    // Y and h depend on the word: left as written.
    expect(elide('Près de Yellowknife', 'fr')).toBe('Près de Yellowknife');
    expect(elide('Près de Hull', 'fr')).toBe('Près de Hull');
    // Only French; a word that merely ends in "de" is not "de".
    expect(elide('Cerca de Ottawa', 'es')).toBe('Cerca de Ottawa');
    expect(elide('Une onde en mer', 'fr')).toBe('Une onde en mer');
  });
});
