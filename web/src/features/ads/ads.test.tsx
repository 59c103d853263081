import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { envelope, type RecordedRequest } from '../../test/fakeServer';
import { installIntersectionObserver } from '../../test/intersection';
import { feedPage, ledger, newsItem } from '../../test/newsFixtures';
import { firstLoadPayload } from '../../test/payload';
import { renderApp } from '../../test/renderApp';
import { feedSlotAfter, pickCreative, placementId, type AdClient } from './index';

const client: AdClient = {
  client_id: 'ca-local-1',
  adn_id: 37,
  creatives: [
    {
      id: 'f1',
      placement: 'feed',
      rule_id: 'r-bakery',
      sponsor: 'Main St Bakery',
      title: 'Fresh bread every morning',
      url: 'https://bakery.example/',
      revenue: 0.12,
      floor_price: 0.05,
      langs: ['en', 'es'],
    },
    {
      id: 'a1',
      placement: 'article',
      rule_id: 'r-hardware',
      sponsor: 'Corner Hardware',
      title: 'Spring sale on garden tools',
      url: 'https://hardware.example/sale',
      revenue: 0.3,
      floor_price: 0.1,
      langs: ['en', 'es', 'fr'],
    },
    {
      id: 'f2',
      placement: 'feed',
      rule_id: 'r-books',
      sponsor: 'Second Chapter Books',
      title: 'Used books, new stories',
      url: 'https://books.example/',
      revenue: 0.08,
      floor_price: 0.02,
      langs: ['en'],
    },
    {
      id: 'f3',
      placement: 'feed',
      rule_id: 'r-boulangerie',
      sponsor: 'Boulangerie du coin',
      title: 'Du pain frais chaque matin',
      url: 'https://boulangerie.example/',
      revenue: 0.1,
      floor_price: 0.04,
      langs: ['fr'],
    },
  ],
};

const AD_EVENTS = ['should_show', 'ping_back', 'ad_click'];

type Sent = { event: string } & Record<string, unknown>;

/** The events the app's one reporter sent to the (loopback) server. */
function reported(requests: RecordedRequest[]): Sent[] {
  return requests
    .filter((r) => r.method === 'POST' && r.path === '/api/report')
    .flatMap((r) => (r.body as { data: Sent[] }).data);
}

const adEvents = (requests: RecordedRequest[]) =>
  reported(requests).filter((e) => AD_EVENTS.includes(e.event));

const stories = (n: number) =>
  Array.from({ length: n }, (_, i) => newsItem(500 + i, { title: `Feed story ${i + 1}` }));

const routes = {
  'POST /api/report': (req: RecordedRequest) =>
    envelope({ accepted: (req.body as { data: unknown[] }).data.length }),
  'GET /api/news/feed': () => envelope(feedPage(stories(20))),
  'GET /api/news/detail': () =>
    envelope({
      news: newsItem(1042, { title: 'Council approves the new budget', content: '<p>Yes.</p>' }),
      media: ledger,
      cluster: [],
      related: [newsItem(1050, { title: 'Metro fares rise' })],
    }),
};

let io: ReturnType<typeof installIntersectionObserver>;
beforeEach(() => {
  io = installIntersectionObserver();
});
afterEach(() => vi.unstubAllGlobals());

describe('ad slots: where they go and what they show (D345)', () => {
  it('d345 feed slots come after the 6th story, then after every 10th', () => {
    const after = Array.from({ length: 40 }, (_, i) => feedSlotAfter(i));
    expect(after.flatMap((slot, i) => (slot === null ? [] : [[i + 1, slot]]))).toEqual([
      [6, 0],
      [16, 1],
      [26, 2],
      [36, 3],
    ]);
  });

  it('d345 creatives take turns by slot, within their placement and language', () => {
    const ids = (lang: string) =>
      [0, 1, 2, 3].map((slot) => pickCreative(client, 'feed', lang, slot)?.id);
    expect(ids('en')).toEqual(['f1', 'f2', 'f1', 'f2']);
    expect(ids('es')).toEqual(['f1', 'f1', 'f1', 'f1']);
    expect(ids('fr')).toEqual(['f3', 'f3', 'f3', 'f3']);
    expect(pickCreative(client, 'article', 'fr', 5)?.id).toBe('a1');
    expect(pickCreative({ ...client, creatives: [] }, 'feed', 'en', 0)).toBeNull();
    expect(placementId(client, client.creatives[1])).toBe('ca-local-1:article');
  });
});

describe('no ad client (issue 21: off by default)', () => {
  it('d345_no_ad_client_renders_no_slot_and_loads_nothing', async () => {
    const { server } = renderApp('/latest', {
      payload: firstLoadPayload({ route: 'latest', ads: null }),
      routes,
    });
    expect(await screen.findByRole('link', { name: 'Feed story 20' })).toBeInTheDocument();
    const list = document.querySelector('.news-list')!;
    // 20 stories, 20 entries: no slot, not even an empty one.
    expect(list.children).toHaveLength(20);
    expect(document.querySelector('.ad-slot, .news-list__extra')).toBeNull();
    expect(screen.queryByText('Sponsored')).toBeNull();
    expect(document.querySelector('iframe, script')).toBeNull();
    // Nothing is asked to find out, and nothing about ads is reported.
    expect(server.requests.some((r) => r.path === '/api/app/config')).toBe(false);
    await waitFor(() => expect(reported(server.requests).length).toBeGreaterThan(0), {
      timeout: 3000,
    });
    expect(adEvents(server.requests)).toEqual([]);
  });

  it('d345 without a page payload the app config says null, and still no slot', async () => {
    const { server } = renderApp('/article/1042', { routes });
    expect(await screen.findByRole('link', { name: 'Metro fares rise' })).toBeInTheDocument();
    await waitFor(() =>
      expect(server.requests.some((r) => r.path === '/api/app/config')).toBe(true),
    );
    expect(screen.queryByRole('complementary', { name: 'Sponsored' })).toBeNull();
    await waitFor(() => expect(reported(server.requests).length).toBeGreaterThan(0), {
      timeout: 3000,
    });
    expect(adEvents(server.requests)).toEqual([]);
  });
});

describe('a configured ad client (§9.2, §3.17)', () => {
  it('d345 a feed slot shows the sponsored creative for its placement and language', async () => {
    renderApp('/latest', { payload: firstLoadPayload({ route: 'latest', ads: client }), routes });
    expect(await screen.findByRole('link', { name: 'Feed story 20' })).toBeInTheDocument();
    const list = document.querySelector('.news-list')!;
    const entries = Array.from(list.children);
    expect(entries).toHaveLength(22);
    // After the 6th story and after the 16th; the creatives for English take turns.
    const slots = screen.getAllByRole('complementary', { name: 'Sponsored' });
    expect(slots).toHaveLength(2);
    expect(entries[6]).toContainElement(slots[0]);
    expect(entries[17]).toContainElement(slots[1]);
    expect(within(slots[0]).getByText('Sponsored')).toBeInTheDocument();
    const link = within(slots[0]).getByRole('link', { name: /Fresh bread every morning/ });
    expect(link).toHaveAttribute('href', 'https://bakery.example/');
    expect(link).toHaveAttribute('target', '_blank');
    expect(link).toHaveAttribute('rel', 'sponsored noopener noreferrer');
    expect(within(slots[0]).getByText('From Main St Bakery')).toBeInTheDocument();
    expect(
      within(slots[1]).getByRole('link', { name: /Used books, new stories/ }),
    ).toBeInTheDocument();
    // Text only: no ad network's frame, script or image.
    expect(slots[0].querySelector('iframe, script, img')).toBeNull();
  });

  it('d345 in French the slot shows the French creative, labelled in French', async () => {
    renderApp('/fr/latest', {
      payload: firstLoadPayload({ route: 'latest', locale: 'fr', ads: client }),
      routes,
    });
    const slots = await screen.findAllByRole('complementary', { name: 'Commandité' });
    expect(
      within(slots[0]).getByRole('link', { name: /Du pain frais chaque matin/ }),
    ).toHaveAttribute('href', 'https://boulangerie.example/');
  });

  it('d345 on home only the paging latest list has slots, not the sections the server writes', async () => {
    renderApp('/', { payload: firstLoadPayload({ route: 'home', ads: client }), routes });
    const latest = await screen.findByRole('region', { name: 'Latest news' });
    // The latest list, and the ads' code with it, loads when the reader comes near it (D425).
    await waitFor(() => expect(io.observed()).toContain(latest));
    io.setNear(latest);
    await waitFor(() =>
      expect(within(latest).getAllByRole('complementary', { name: 'Sponsored' })).toHaveLength(2),
    );
    expect(screen.getAllByRole('complementary', { name: 'Sponsored' })).toHaveLength(2);
  });

  it('d345 the article shows its slot below the story', async () => {
    renderApp('/article/1042', {
      payload: firstLoadPayload({ route: 'article', ads: client }),
      routes,
    });
    const slot = await screen.findByRole('complementary', { name: 'Sponsored' });
    expect(within(slot).getByRole('link', { name: /Spring sale on garden tools/ })).toBeVisible();
  });

  it('s3_17 s9_11 should_show, ping_back and ad_click carry placement, rule, revenue, floor price, times and scene', async () => {
    const { server } = renderApp('/article/1042', {
      payload: firstLoadPayload({ route: 'article', ads: client }),
      routes,
    });
    const slot = await screen.findByRole('complementary', { name: 'Sponsored' });
    const base = {
      adn_id: 37,
      placement_id: 'ca-local-1:article',
      rule_id: 'r-hardware',
      scene: 'article',
    };
    await waitFor(() => expect(adEvents(server.requests)).toHaveLength(1), { timeout: 3000 });
    expect(adEvents(server.requests)[0]).toMatchObject({ event: 'should_show', ...base });

    const before = Date.now();
    io.setNear(slot);
    io.setNear(slot); // seen twice, reported once
    const link = within(slot).getByRole('link');
    // jsdom does not open tabs: keep the click from trying.
    link.addEventListener('click', (e) => e.preventDefault());
    fireEvent.click(link);

    await waitFor(() => expect(adEvents(server.requests)).toHaveLength(3), { timeout: 3000 });
    const [, ping, click] = adEvents(server.requests);
    expect(ping).toMatchObject({
      event: 'ping_back',
      ...base,
      revenue: 0.3,
      floor_price: 0.1,
    });
    expect(ping.show_time).toBeGreaterThanOrEqual(before);
    expect(ping.load_time).toBeGreaterThanOrEqual(0);
    expect(ping.load_time).toBeLessThan(10_000);
    expect(click).toMatchObject({
      event: 'ad_click',
      ...base,
      revenue: 0.3,
      floor_price: 0.1,
      show_time: ping.show_time,
      load_time: ping.load_time,
    });
    expect(click.click_time).toBeGreaterThanOrEqual(ping.show_time as number);
  });

  it('s9_11 d345 adn_id is 37 by default', async () => {
    const withoutAdnId: Partial<AdClient> = { ...client };
    delete withoutAdnId.adn_id;
    const { server } = renderApp('/latest', {
      payload: firstLoadPayload({ route: 'latest', ads: withoutAdnId as AdClient }),
      routes,
    });
    await screen.findAllByRole('complementary', { name: 'Sponsored' });
    await waitFor(() => expect(adEvents(server.requests).length).toBeGreaterThan(0), {
      timeout: 3000,
    });
    const shows = adEvents(server.requests).filter((e) => e.event === 'should_show');
    expect(shows.map((e) => [e.adn_id, e.placement_id, e.rule_id, e.scene])).toEqual([
      [37, 'ca-local-1:feed', 'r-bakery', 'latest'],
      [37, 'ca-local-1:feed', 'r-books', 'latest'],
    ]);
  });
});
