import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { envelope, guestUser, type Handler } from '../../test/fakeServer';
import { installIntersectionObserver } from '../../test/intersection';
import { renderApp } from '../../test/renderApp';

const DAY_MS = 86_400_000;
const operator = { ...guestUser, id: 42, account_type: 3, name: 'Olu', email: 'op@example.org' };
const utcDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

function usageOf(from: string, to: string) {
  return {
    from,
    to,
    days: [
      { date: from, readers: 3, page_views: 10, events: 25 },
      { date: to, readers: 5, page_views: 14, events: 31 },
    ],
    core_functions: [{ key: 'NewsDetail_Show', label: 'NewsDetail_Show', count: 12 }],
    top_stories: [{ key: '901', label: 'Bridge reopens on Monday', count: 7 }],
    search_terms: [{ key: 'snow', label: 'snow', count: 4 }],
    channels: [
      { key: 'googleadwords_int', label: 'googleadwords_int', count: 2 },
      { key: '', label: '', count: 9 },
    ],
    countries: [{ key: 'CA', label: 'CA', count: 6 }],
    languages: [],
  };
}

const emptyUsage = (from: string, to: string) => ({
  ...usageOf(from, to),
  days: [{ date: from, readers: 0, page_views: 0, events: 0 }],
  core_functions: [],
  top_stories: [],
  search_terms: [],
  channels: [],
  countries: [],
});

const NOW = Date.now();
const feedRows = [
  {
    feed_id: 1,
    media_id: 10,
    publisher: 'The Capitol Ledger',
    url: 'https://ledger.example/rss',
    lang: 'en',
    last_fetch: NOW - 5 * 60_000,
    last_status: 200,
    last_items: 3,
    items: 120,
    last_error: '',
    next_due: NOW + 25 * 60_000,
    consecutive_errors: 0,
    paused: false,
  },
  {
    feed_id: 2,
    media_id: 11,
    publisher: 'Le Droit',
    url: 'https://droit.example/feed.xml',
    lang: 'fr',
    last_fetch: null,
    last_status: null,
    last_items: 0,
    items: 0,
    last_error: 'connection refused',
    next_due: NOW - 60_000,
    consecutive_errors: 3,
    paused: false,
  },
];

type Range = { from: string; to: string };

function open(routes: Record<string, Handler> = {}, path = '/admin') {
  return renderApp(path, {
    cookies: { deviceId: 'd', token: 'tok-op' },
    routes: {
      'POST /api/user/info': () => envelope(operator),
      'POST /api/admin/usage': (req) => {
        const { from, to } = req.body as Range;
        return envelope(usageOf(from, to));
      },
      'POST /api/admin/feeds': () => envelope({ list: feedRows }),
      ...routes,
    },
  });
}

const bodiesOf = (server: ReturnType<typeof open>['server'], path: string) =>
  server.requests.filter((r) => r.method === 'POST' && r.path === path).map((r) => r.body);

const section = (name: string) => screen.findByRole('region', { name }, { timeout: 3000 });

async function feedRow(publisher: string) {
  const cell = await screen.findByRole(
    'rowheader',
    { name: new RegExp(publisher) },
    { timeout: 3000 },
  );
  return cell.closest('tr')!;
}

/** A Blob's text (FileReader: jsdom's Blob has no `text()`). */
function blobText(blob: Blob): Promise<string> {
  return new Promise((resolve) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.readAsText(blob);
  });
}

beforeEach(() => installIntersectionObserver());
afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
});

describe('/admin usage (D335, D343)', () => {
  it('d343_usage_of_the_last_30_utc_days_shows_the_daily_chart_its_numbers_and_every_top_list', async () => {
    const { server } = open();
    const usage = await section('Usage');
    const to = utcDay(Date.now());
    const from = utcDay(Date.now() - 29 * DAY_MS);
    await within(usage).findByRole('table', { name: 'Core functions' }, { timeout: 3000 });
    expect(bodiesOf(server, '/api/admin/usage')[0]).toEqual({ from, to });
    expect(within(usage).getByRole('button', { name: 'Last 30 days' })).toHaveAttribute(
      'aria-pressed',
      'true',
    );
    expect(within(usage).getByLabelText('From')).toHaveValue(from);
    expect(within(usage).getByLabelText('To')).toHaveValue(to);

    // The chart's text alternative sums it up; the table has every day's numbers.
    const chart = within(usage).getByRole('img', { name: /Readers and page views per day/ });
    expect(chart).toHaveAccessibleName(expect.stringContaining('24 page views in all'));
    expect(chart).toHaveAccessibleName(expect.stringContaining(`most readers on ${to} (5)`));
    expect(chart.querySelectorAll('polyline')).toHaveLength(2);
    await userEvent.click(within(usage).getByText('The numbers of each day'));
    const daily = within(usage).getByRole('table', {
      name: 'Readers, page views and events per day',
    });
    const last = within(daily).getByRole('rowheader', { name: to }).closest('tr')!;
    expect(
      within(last)
        .getAllByRole('cell')
        .map((c) => c.textContent),
    ).toEqual(['5', '14', '31']);

    const core = within(usage).getByRole('table', { name: 'Core functions' });
    expect(within(core).getByRole('row', { name: 'NewsDetail_Show 12' })).toBeInTheDocument();
    const stories = within(usage).getByRole('table', { name: 'Top stories' });
    expect(within(stories).getByRole('link', { name: 'Bridge reopens on Monday' })).toHaveAttribute(
      'href',
      '/article/901',
    );
    for (const [caption, row] of [
      ['Search terms', 'snow 4'],
      ['Acquisition channels', 'googleadwords_int 2'],
      ['Acquisition channels', '(none) 9'],
      ['Countries', 'CA 6'],
    ]) {
      const table = within(usage).getByRole('table', { name: caption });
      expect(within(table).getByRole('row', { name: row })).toBeInTheDocument();
    }
    const languages = within(usage).getByRole('table', { name: 'Languages' });
    expect(within(languages).getByText('None in this range')).toBeInTheDocument();

    // A preset asks for its range at once.
    await userEvent.click(within(usage).getByRole('button', { name: 'Last 7 days' }));
    await waitFor(() =>
      expect(bodiesOf(server, '/api/admin/usage')).toContainEqual({
        from: utcDay(Date.now() - 6 * DAY_MS),
        to,
      }),
    );
  });

  it('d341_export_ndjson_is_a_signed_post_saved_as_a_file', async () => {
    let blob: Blob | undefined;
    const createObjectURL = vi.fn((b: Blob) => {
      blob = b;
      return 'blob:usage';
    });
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL, revokeObjectURL: vi.fn() }));
    const clicked: HTMLAnchorElement[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (
      this: HTMLAnchorElement,
    ) {
      clicked.push(this);
    });
    const ndjson = '{"id":1,"event":"pageView"}\n{"id":2,"event":"search"}\n';
    const { server } = open({
      'POST /api/admin/usage/export': (req) => {
        const { from, to } = req.body as Range;
        return {
          text: ndjson,
          headers: {
            'content-type': 'application/x-ndjson',
            'content-disposition': `attachment; filename="localwire-usage-${from}-${to}.ndjson"`,
          },
        };
      },
    });
    const usage = await section('Usage');
    await userEvent.click(await within(usage).findByRole('button', { name: 'Export NDJSON' }));

    await waitFor(() => expect(clicked).toHaveLength(1));
    const to = utcDay(Date.now());
    const from = utcDay(Date.now() - 29 * DAY_MS);
    const request = server.requests.find((r) => r.path === '/api/admin/usage/export')!;
    expect(request.body).toEqual({ from, to });
    expect(request.headers.sign).toMatch(/^[0-9A-F]{32}$/);
    expect(request.headers.token).toBe('tok-op');
    expect(clicked[0].download).toBe(`localwire-usage-${from}-${to}.ndjson`);
    expect(clicked[0].getAttribute('href')).toBe('blob:usage');
    expect(blob?.type).toBe('application/x-ndjson');
    expect(await blobText(blob!)).toBe(ndjson);
  });

  it('d335_a_range_the_server_refuses_shows_its_message_next_to_the_range', async () => {
    const message = 'Field `to`: must not be before `from`.';
    const { server } = open({
      'POST /api/admin/usage': (req) => {
        const { from, to } = req.body as Range;
        if (to < from) return { status: 400, body: { code: 400, data: null, message } };
        return envelope(usageOf(from, to));
      },
    });
    const usage = await section('Usage');
    await within(usage).findByRole('table', { name: 'Core functions' }, { timeout: 3000 });
    fireEvent.change(within(usage).getByLabelText('From'), { target: { value: '2026-11-20' } });
    fireEvent.change(within(usage).getByLabelText('To'), { target: { value: '2026-11-01' } });
    await userEvent.click(within(usage).getByRole('button', { name: 'Show' }));

    const alert = await within(usage).findByRole('alert');
    expect(alert).toHaveTextContent(message);
    expect(within(usage).getByLabelText('From')).toHaveAccessibleDescription(message);
    expect(within(usage).getByLabelText('To')).toHaveAttribute('aria-invalid', 'true');
    expect(bodiesOf(server, '/api/admin/usage')).toContainEqual({
      from: '2026-11-20',
      to: '2026-11-01',
    });
  });

  it('d343_a_range_with_no_reports_says_so', async () => {
    open({
      'POST /api/admin/usage': (req) => {
        const { from, to } = req.body as Range;
        return envelope(emptyUsage(from, to));
      },
    });
    const usage = await section('Usage');
    expect(
      await within(usage).findByText('No usage reported in this range', {}, { timeout: 3000 }),
    ).toBeInTheDocument();
    expect(within(usage).queryByRole('img')).toBeNull();
  });
});

describe('/admin for whom (D340)', () => {
  it('d340_an_account_that_is_not_an_operator_is_told_how_to_become_one', async () => {
    const forbidden = () => ({
      status: 403,
      body: { code: 403, data: null, message: 'Forbidden' },
    });
    open({ 'POST /api/admin/usage': forbidden, 'POST /api/admin/feeds': forbidden });
    const alert = await screen.findByRole('alert', {}, { timeout: 3000 });
    expect(alert).toHaveTextContent(
      'This page is for operators. Ask the person who runs this server to add your email to --admin-emails.',
    );
    expect(screen.queryByRole('region', { name: 'Usage' })).toBeNull();
    expect(screen.queryByRole('region', { name: 'Feeds' })).toBeNull();
  });

  it('d340_the_message_is_in_the_pages_language', async () => {
    const forbidden = () => ({
      status: 403,
      body: { code: 403, data: null, message: 'Forbidden' },
    });
    open({ 'POST /api/admin/usage': forbidden, 'POST /api/admin/feeds': forbidden }, '/fr/admin');
    expect(
      await screen.findByText(/Cette page est réservée aux opérateurs/, {}, { timeout: 3000 }),
    ).toBeInTheDocument();
  });

  it('s6_2_d340_a_guest_is_sent_to_sign_in_and_back', async () => {
    const { location, server } = renderApp('/admin', { cookies: { deviceId: 'd', token: 't' } });
    await waitFor(() => expect(location()).toBe('/?login=1&redirect=%2Fadmin'), { timeout: 3000 });
    expect(server.requests.some((r) => r.path.startsWith('/api/admin'))).toBe(false);
  });

  it('d340_an_ended_session_offers_to_sign_in_again', async () => {
    const unauthorized = () => ({
      status: 401,
      body: { code: 401, data: null, message: 'Unauthorized' },
    });
    open({ 'POST /api/admin/usage': unauthorized, 'POST /api/admin/feeds': unauthorized });
    const link = await screen.findByRole('link', { name: 'Sign in' }, { timeout: 3000 });
    expect(link).toHaveAttribute('href', '/?login=1&redirect=%2Fadmin');
  });
});

describe('/admin feeds (D342)', () => {
  it('d342_lists_the_feeds_like_localwire_feeds_list', async () => {
    const { server } = open();
    const ledger = await feedRow('The Capitol Ledger');
    expect(bodiesOf(server, '/api/admin/feeds')).toEqual([{}]);
    expect(within(ledger).getByText('https://ledger.example/rss')).toBeInTheDocument();
    expect(within(ledger).getByText('5 minutes ago')).toBeInTheDocument();
    expect(within(ledger).getByText('200')).toBeInTheDocument();
    expect(within(ledger).getByText(/120/)).toHaveTextContent('120 (+3 last time)');
    expect(within(ledger).getByText('in 25 minutes')).toBeInTheDocument();
    const droit = await feedRow('Le Droit');
    expect(within(droit).getByText('Never')).toBeInTheDocument();
    expect(within(droit).getByText('Due now')).toBeInTheDocument();
    expect(within(droit).getByText(/connection refused/)).toHaveTextContent(
      'connection refused (failed 3 times in a row)',
    );
    expect(
      screen.getByRole('table', { name: 'Feeds read by this server (2)' }),
    ).toBeInTheDocument();
  });

  it('d342_says_when_there_are_no_feeds_and_retries_a_failed_list', async () => {
    let calls = 0;
    open({
      'POST /api/admin/feeds': () =>
        ++calls <= 2
          ? { status: 503, body: { code: 503, data: null, message: 'busy' } }
          : envelope({ list: [] }),
    });
    const feeds = await section('Feeds');
    await userEvent.click(
      await within(feeds).findByRole('button', { name: 'Try again' }, { timeout: 3000 }),
    );
    expect(await within(feeds).findByText('No feeds yet')).toBeInTheDocument();
  });

  it('d342_pause_shows_the_row_paused_and_resume_undoes_it', async () => {
    const { server } = open({
      'POST /api/admin/feeds/pause': (req) => {
        const { feed_id, paused } = req.body as { feed_id: number; paused: boolean };
        return envelope({ feed: { ...feedRows.find((f) => f.feed_id === feed_id)!, paused } });
      },
    });
    const ledger = await feedRow('The Capitol Ledger');
    await userEvent.click(
      within(ledger).getByRole('button', { name: /^Pause\W+The Capitol Ledger$/ }),
    );
    const paused = await feedRow('The Capitol Ledger');
    expect(
      await within(paused).findByRole('button', { name: /^Resume\W+The Capitol Ledger$/ }),
    ).toBeInTheDocument();
    expect(within(paused).getByText('Paused')).toBeInTheDocument();
    expect(bodiesOf(server, '/api/admin/feeds/pause')).toEqual([{ feed_id: 1, paused: true }]);

    await userEvent.click(
      within(paused).getByRole('button', { name: /^Resume\W+The Capitol Ledger$/ }),
    );
    const resumed = await feedRow('The Capitol Ledger');
    expect(
      await within(resumed).findByRole('button', { name: /^Pause\W+The Capitol Ledger$/ }),
    ).toBeInTheDocument();
    expect(within(resumed).queryByText('Paused')).toBeNull();
    expect(bodiesOf(server, '/api/admin/feeds/pause')).toEqual([
      { feed_id: 1, paused: true },
      { feed_id: 1, paused: false },
    ]);
  });

  it('d342_a_failed_pause_puts_the_row_back_and_says_why', async () => {
    open({
      'POST /api/admin/feeds/pause': () => ({
        status: 404,
        body: { code: 404, data: null, message: 'Not Found' },
      }),
    });
    const ledger = await feedRow('The Capitol Ledger');
    await userEvent.click(
      within(ledger).getByRole('button', { name: /^Pause\W+The Capitol Ledger$/ }),
    );
    expect(await screen.findByText('Not Found')).toBeInTheDocument();
    const row = await feedRow('The Capitol Ledger');
    expect(within(row).getByRole('button', { name: /^Pause\W+The Capitol Ledger$/ })).toBeEnabled();
    expect(within(row).queryByText('Paused')).toBeNull();
  });

  it('d342_remove_asks_first_and_cancel_keeps_the_feed', async () => {
    const { server } = open({
      'POST /api/admin/feeds/remove': () => envelope({ removed: true }),
    });
    const droit = await feedRow('Le Droit');
    await userEvent.click(within(droit).getByRole('button', { name: /^Remove\W+Le Droit$/ }));
    let dialog = await screen.findByRole('alertdialog', { name: 'Remove this feed?' });
    expect(dialog).toHaveAccessibleDescription(/https:\/\/droit\.example\/feed\.xml/);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(bodiesOf(server, '/api/admin/feeds/remove')).toEqual([]);

    await userEvent.click(within(droit).getByRole('button', { name: /^Remove\W+Le Droit$/ }));
    dialog = await screen.findByRole('alertdialog', { name: 'Remove this feed?' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Remove the feed' }));
    await waitFor(() => expect(screen.queryByRole('rowheader', { name: /Le Droit/ })).toBeNull());
    expect(bodiesOf(server, '/api/admin/feeds/remove')).toEqual([{ feed_id: 2 }]);
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(screen.getByRole('rowheader', { name: /The Capitol Ledger/ })).toBeInTheDocument();
  });

  it('d342_add_feed_posts_the_fields_filled_in_and_shows_a_refusal', async () => {
    const refusal = 'Field `url`: the feed could not be read (HTTP 404).';
    const added = {
      ...feedRows[1],
      feed_id: 3,
      media_id: 12,
      publisher: 'Ottawa Citizen',
      url: 'https://citizen.example/feed',
      last_error: '',
      consecutive_errors: 0,
    };
    let tries = 0;
    const { server } = open({
      'POST /api/admin/feeds/add': () =>
        ++tries === 1
          ? { status: 400, body: { code: 400, data: null, message: refusal } }
          : envelope({ feed: added }),
    });
    await feedRow('The Capitol Ledger');
    const form = screen.getByRole('form', { name: 'Add a feed' });
    await userEvent.type(
      within(form).getByLabelText('Feed address (RSS, Atom or JSON Feed)'),
      'https://citizen.example/feed',
    );
    await userEvent.type(
      within(form).getByLabelText('Publisher name (optional)'),
      'Ottawa Citizen',
    );
    await userEvent.selectOptions(within(form).getByLabelText('Country'), 'CA');
    await userEvent.type(within(form).getByLabelText('City (optional)'), ' Ottawa ');
    await userEvent.selectOptions(within(form).getByLabelText('Language'), 'fr');
    await userEvent.click(within(form).getByRole('button', { name: 'Add feed' }));

    expect(await within(form).findByRole('alert')).toHaveTextContent(refusal);
    expect(bodiesOf(server, '/api/admin/feeds/add')).toEqual([
      {
        url: 'https://citizen.example/feed',
        name: 'Ottawa Citizen',
        country: 'CA',
        city: 'Ottawa',
        lang: 'fr',
      },
    ]);

    await userEvent.click(within(form).getByRole('button', { name: 'Add feed' }));
    expect(await feedRow('Ottawa Citizen')).toBeInTheDocument();
    expect(within(form).queryByRole('alert')).toBeNull();
    expect(within(form).getByLabelText('Feed address (RSS, Atom or JSON Feed)')).toHaveValue('');
  });

  it('d342_opml_import_reports_what_was_added_and_each_skipped_line', async () => {
    const opml =
      '<?xml version="1.0"?><opml version="2.0"><body><outline xmlUrl="https://a.example/rss"/></body></opml>';
    const { server } = open({
      'POST /api/admin/feeds/importOpml': () =>
        envelope({
          media_added: 2,
          feeds_added: 3,
          skipped: [
            { url: 'https://dup.example/rss', why: 'already present' },
            { url: 'ftp://old.example/feed', why: 'not an http(s) address' },
          ],
        }),
    });
    await feedRow('The Capitol Ledger');
    const form = screen.getByRole('form', { name: 'Import an OPML file' });
    await userEvent.upload(
      within(form).getByLabelText('OPML file (at most 1 MB)'),
      new File([opml], 'feeds.opml', { type: 'text/x-opml' }),
    );
    await userEvent.click(within(form).getByRole('button', { name: 'Import' }));

    expect(await within(form).findByText('Feeds added: 3. New publishers: 2.')).toBeInTheDocument();
    expect(within(form).getByText('Skipped lines (2):')).toBeInTheDocument();
    const skipped = within(form)
      .getAllByRole('listitem')
      .map((li) => li.textContent);
    expect(skipped).toEqual([
      'https://dup.example/rss: already present',
      'ftp://old.example/feed: not an http(s) address',
    ]);
    expect(bodiesOf(server, '/api/admin/feeds/importOpml')).toEqual([{ opml }]);
    // The list is asked again: the import changed it.
    await waitFor(() => expect(bodiesOf(server, '/api/admin/feeds').length).toBe(2));
  });

  it('d342_an_opml_file_the_server_refuses_shows_its_message', async () => {
    open({
      'POST /api/admin/feeds/importOpml': () => ({
        status: 400,
        body: {
          code: 400,
          data: null,
          message: 'No feed in this OPML file (no outline has an xmlUrl).',
        },
      }),
    });
    await feedRow('The Capitol Ledger');
    const form = screen.getByRole('form', { name: 'Import an OPML file' });
    await userEvent.click(within(form).getByRole('button', { name: 'Import' }));
    expect(await within(form).findByRole('alert')).toHaveTextContent('Choose an OPML file first.');
    await userEvent.upload(
      within(form).getByLabelText('OPML file (at most 1 MB)'),
      new File(['<opml/>'], 'empty.opml', { type: 'text/x-opml' }),
    );
    await userEvent.click(within(form).getByRole('button', { name: 'Import' }));
    expect(await within(form).findByRole('alert')).toHaveTextContent(
      'No feed in this OPML file (no outline has an xmlUrl).',
    );
  });
});
