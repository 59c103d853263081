import i18next from 'i18next';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Locale } from '../lib/locale';
import { applyDocumentLocale, loadLocale } from '.';

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
});
