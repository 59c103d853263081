import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Locale } from '../lib/locale';
import { act, render, screen } from '@testing-library/react';
import { createElement } from 'react';
import adminEn from './admin/en.json';
import adminEs from './admin/es.json';
import {
  applyDocumentLocale,
  elide,
  formatMessage,
  i18n,
  loadLocale,
  loadMessages,
  useTranslation,
} from '.';

afterEach(async () => {
  await loadLocale('en');
});

describe('§4.10 locale loading', () => {
  it('§4.10 on change the messages load and <html lang dir> follows', async () => {
    await loadLocale('es');
    expect(i18n.language).toBe('es');
    expect(i18n.t('Web_Back')).toBe('Volver al inicio');
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
    expect(i18n.language).toBe('fr');
  });

  it('D150 French elides "de" and "que" before a vowel in messages with values', async () => {
    await loadLocale('fr');
    expect(i18n.t('Section_Local', { city: 'Ottawa, ON' })).toBe('Près d’Ottawa, ON');
    expect(i18n.t('Section_Local', { city: 'Édimbourg' })).toBe('Près d’Édimbourg');
    expect(i18n.t('Section_Local', { city: 'Montréal, QC' })).toBe('Près de Montréal, QC');
    expect(i18n.t('User_Greeting', { name: 'Alice' })).toBe('Connecté en tant qu’Alice');
    // Y and h depend on the word: left as written.
    expect(elide('Près de Yellowknife', 'fr')).toBe('Près de Yellowknife');
    expect(elide('Près de Hull', 'fr')).toBe('Près de Hull');
    // Only French; a word that merely ends in "de" is not "de".
    expect(elide('Cerca de Ottawa', 'es')).toBe('Cerca de Ottawa');
    expect(elide('Une onde en mer', 'fr')).toBe('Une onde en mer');
  });
});

describe('D423 messages', () => {
  const catalogue = {
    Plain: 'Back',
    Greeting: 'Hello {{name}}, {{ name }}',
    Unsent: 'Waiting: {{n}} of {{total}}',
    Stories: '{{count}} stories',
    Stories_one: 'One story',
    Stories_other: '{{count}} stories in all',
    Empty: '',
    Zero: '{{count}} left',
    Zero_zero: 'Nothing left',
    Zero_other: '{{count}} left over',
  };

  it('D423 values replace their {{name}}; an absent value stays written, a null one is empty', () => {
    expect(formatMessage(catalogue, 'en', 'Greeting', { name: 'Ana' })).toBe('Hello Ana, Ana');
    expect(formatMessage(catalogue, 'en', 'Unsent', { n: 0, total: null })).toBe('Waiting: 0 of ');
    expect(formatMessage(catalogue, 'en', 'Unsent')).toBe('Waiting: {{n}} of {{total}}');
  });

  it('D423 a missing or empty message is its default value, else its key', () => {
    expect(formatMessage(catalogue, 'en', 'Nope')).toBe('Nope');
    expect(formatMessage(undefined, 'en', 'Plain')).toBe('Plain');
    expect(formatMessage(catalogue, 'en', 'Empty')).toBe('Empty');
    for (const key of ['constructor', '__proto__', 'toString']) {
      expect(formatMessage(catalogue, 'en', key, { count: 1 })).toBe(key);
    }
    expect(
      formatMessage(catalogue, 'en', 'Nope', { defaultValue: 'Failed: {{why}}', why: 'x' }),
    ).toBe('Failed: x');
  });

  it('D423 count picks the plural form by the language rules, _zero for 0, else the key', () => {
    const en = (count: number) => formatMessage(catalogue, 'en', 'Stories', { count });
    expect([en(1), en(0), en(2)]).toEqual(['One story', '0 stories in all', '2 stories in all']);
    // French: 0 and 1 are singular; Spanish: 0 is plural.
    const fr = (count: number) => formatMessage(catalogue, 'fr', 'Stories', { count });
    expect([fr(0), fr(1), fr(1.5), fr(2)]).toEqual([
      'One story',
      'One story',
      'One story',
      '2 stories in all',
    ]);
    const es = (count: number) => formatMessage(catalogue, 'es', 'Stories', { count });
    expect([es(0), es(1), es(2)]).toEqual(['0 stories in all', 'One story', '2 stories in all']);
    // A form the catalogue lacks ("many": a million in es and fr) falls back to the key.
    expect(es(1_000_000)).toBe('1000000 stories');
    expect(formatMessage(catalogue, 'en', 'Zero', { count: 0 })).toBe('Nothing left');
    expect(formatMessage(catalogue, 'en', 'Zero', { count: 3 })).toBe('3 left over');
    expect(formatMessage(catalogue, 'en', 'Plain', { count: 3 })).toBe('Back');
  });

  it('D423 lng translates in another loaded language; an unloaded one gives the key', async () => {
    await loadLocale('es');
    await loadLocale('en');
    expect(i18n.t('Web_Back', { lng: 'es' })).toBe('Volver al inicio');
    expect(i18n.t('Web_Back')).not.toBe('Volver al inicio');
    expect(i18n.t('Web_Back', { lng: 'de' })).toBe('Web_Back');
  });

  it('D423 a component shows the new language when it changes', async () => {
    function Back() {
      const { t } = useTranslation();
      return createElement('p', null, t('Web_Back'));
    }
    render(createElement(Back));
    expect(screen.getByText(i18n.t('Web_Back'))).toBeInTheDocument();
    await act(() => loadLocale('es'));
    expect(screen.getByText('Volver al inicio')).toBeInTheDocument();
  });

  it('D423 a part’s messages join every loaded locale, and each one loaded later', async () => {
    await loadLocale('en');
    const key = Object.keys(adminEn)[0];
    expect(i18n.t(key)).toBe(key);
    await loadMessages('admin');
    expect(i18n.t(key)).toBe(adminEn[key as keyof typeof adminEn]);
    await loadLocale('es');
    expect(i18n.t(key)).toBe(adminEs[key as keyof typeof adminEs]);
  });
});
