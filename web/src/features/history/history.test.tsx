import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { envelope } from '../../test/fakeServer';
import { installIntersectionObserver } from '../../test/intersection';
import { renderApp } from '../../test/renderApp';
import type { HistoryDay, HistoryEntry } from './api';

beforeEach(() => {
  installIntersectionObserver();
});

const entry = (text: string, overrides: Partial<HistoryEntry> = {}): HistoryEntry => ({
  text,
  year: 1900,
  local: false,
  pages: [],
  ...overrides,
});

function day(overrides: Partial<HistoryDay> = {}): HistoryDay {
  const section = (kind: HistoryDay['sections'][number]['kind'], entries: HistoryEntry[]) => ({
    kind,
    local_count: entries.filter((e) => e.local).length,
    entries,
  });
  return {
    date: '2026-07-01',
    month: 7,
    day: 1,
    lang: 'en',
    demo: false,
    place: { city_id: 4140963, city: 'Washington', admin_name: 'District of Columbia' },
    sections: [
      section('selected', [
        entry('The Washington Monument was completed.', {
          year: 1884,
          local: true,
          pages: [
            {
              title: 'Washington Monument',
              url: 'https://en.wikipedia.org/wiki/Washington_Monument',
              description: 'Obelisk in Washington, D.C.',
              image: { src: 'https://upload.wikimedia.org/monument.jpg', width: 320, height: 480 },
            },
          ],
        }),
        entry('The Battle of Gettysburg began.', { year: 1863 }),
      ]),
      section('events', [entry('Sony introduced the Walkman.', { year: 1979 })]),
      section('births', [entry('Carl Lewis, American sprinter', { year: 1961 })]),
      section('deaths', [entry('Marlon Brando, American actor', { year: 2004 })]),
      section('holidays', [entry('Canada Day (Canada)', { year: undefined })]),
    ],
    attribution: {
      source: 'Wikipedia',
      source_url: 'https://en.wikipedia.org/wiki/July_1',
      license: 'CC BY-SA 4.0',
      license_url: 'https://creativecommons.org/licenses/by-sa/4.0/',
    },
    fetched_at: 1,
    ...overrides,
  };
}

describe('/today-in-history (D290–D292)', () => {
  it('lists the five sections with Wikipedia links, lazy images and the CC BY-SA attribution', async () => {
    renderApp('/today-in-history', { routes: { 'GET /api/history': () => envelope(day()) } });
    const selected = await screen.findByRole(
      'region',
      { name: 'Selected anniversaries' },
      { timeout: 5000 },
    );
    for (const name of ['Events', 'Births', 'Deaths', 'Holidays and observances']) {
      expect(screen.getByRole('region', { name })).toBeInTheDocument();
    }
    expect(within(selected).getByRole('link', { name: 'Washington Monument' })).toHaveAttribute(
      'href',
      'https://en.wikipedia.org/wiki/Washington_Monument',
    );
    const image = selected.querySelector('img')!;
    expect(image).toHaveAttribute('loading', 'lazy');
    expect(image).toHaveAttribute('src', 'https://upload.wikimedia.org/monument.jpg');
    expect(image).toHaveAttribute('width', '64');
    expect(screen.getByText(/July 1/)).toBeInTheDocument();
    expect(
      screen.getByRole('link', { name: 'From Wikipedia, the free encyclopedia' }),
    ).toHaveAttribute('href', 'https://en.wikipedia.org/wiki/July_1');
    expect(screen.getByRole('link', { name: 'Text under CC BY-SA 4.0' })).toHaveAttribute(
      'href',
      'https://creativecommons.org/licenses/by-sa/4.0/',
    );
  });

  it('puts local entries first and marks them in words', async () => {
    renderApp('/today-in-history', { routes: { 'GET /api/history': () => envelope(day()) } });
    const selected = await screen.findByRole('region', { name: 'Selected anniversaries' });
    const items = within(selected)
      .getAllByRole('listitem')
      .filter((li) => li.matches('.history-entry'));
    expect(items[0]).toHaveTextContent('About Washington and its region');
    expect(items[0]).toHaveTextContent('1884The Washington Monument was completed.');
    expect(items[1]).not.toHaveTextContent('About Washington');
  });

  it("asks for the reader's language and city", async () => {
    const { calls } = renderApp('/today-in-history', {
      routes: { 'GET /api/history': () => envelope(day()) },
    });
    await screen.findByRole('region', { name: 'Events' });
    expect(calls('/api/history')[0].query).toEqual({ city_id: '4140963', lang: 'en' });
  });

  it('labels demo entries as demo', async () => {
    renderApp('/today-in-history', {
      routes: { 'GET /api/history': () => envelope(day({ demo: true })) },
    });
    expect(await screen.findByRole('note')).toHaveTextContent(/Demo entries/);
  });

  it('shows loading, then an unavailable error that a retry recovers from', async () => {
    let answers = 0;
    renderApp('/today-in-history', {
      routes: {
        'GET /api/history': async () => {
          if (++answers > 1) return envelope(day());
          await new Promise((resolve) => setTimeout(resolve, 300));
          return { status: 503, body: { code: 503, data: null, message: 'unavailable' } };
        },
      },
    });
    expect(await screen.findByRole('status')).toHaveTextContent('Loading today in history…');
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Today in history is unavailable');
    await userEvent.click(within(alert).getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('region', { name: 'Events' })).toBeInTheDocument();
  });

  it('shows an honest empty state for a day without entries', async () => {
    renderApp('/today-in-history', {
      routes: {
        'GET /api/history': () =>
          envelope(
            day({ sections: day().sections.map((s) => ({ ...s, entries: [], local_count: 0 })) }),
          ),
      },
    });
    expect(await screen.findByText('Nothing for today yet')).toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'Events' })).not.toBeInTheDocument();
  });

  it('speaks French: sections, badge and date', async () => {
    const { calls } = renderApp('/fr/today-in-history', {
      routes: {
        'GET /api/history': () => envelope(day({ lang: 'fr' })),
      },
    });
    expect(await screen.findByRole('region', { name: 'Naissances' })).toBeInTheDocument();
    expect(screen.getByText('À propos de Washington et sa région')).toBeInTheDocument();
    expect(screen.getByText(/1 juillet|1er juillet/)).toBeInTheDocument();
    await waitFor(() => expect(calls('/api/history')[0].query.lang).toBe('fr'));
  });
});
