import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import en from '../../i18n/why/en.json';
import es from '../../i18n/why/es.json';
import fr from '../../i18n/why/fr.json';
import { envelope } from '../../test/fakeServer';
import { installIntersectionObserver } from '../../test/intersection';
import { feedPage, newsItem } from '../../test/newsFixtures';
import { renderApp } from '../../test/renderApp';
import { normalizeNewsItem, REASON_KEYS, REASONS, toReason } from '../../lib/news';

beforeEach(() => {
  installIntersectionObserver();
});

const catalogues = { en, es, fr } as Record<string, Record<string, string>>;

/** /latest with one story the server says is there because it is among the latest. */
function latestWith(path: string, reason: unknown = 'latest') {
  return renderApp(path, {
    routes: {
      'GET /api/news/feed': () =>
        envelope(feedPage([newsItem(1, { title: 'Bridge reopens', reason })])),
    },
  });
}

describe('D385 why am I seeing this', () => {
  it.each([
    ['/latest', 'Why am I seeing “Bridge reopens”?', en.Why_Latest],
    ['/es/latest?c=es_US', '¿Por qué veo «Bridge reopens»?', es.Why_Latest],
    ['/fr/latest?c=fr_CA', 'Pourquoi est-ce que je vois « Bridge reopens » ?', fr.Why_Latest],
  ])('a card on %s explains its reason in the reader’s language', async (path, name, words) => {
    latestWith(path);
    const card = (await screen.findByRole('heading', { name: 'Bridge reopens' })).closest(
      'article',
    )!;
    const why = await within(card).findByRole('button', { name });
    expect(why).toHaveAttribute('aria-expanded', 'false');
    expect(within(card).queryByText(words)).toBeNull();

    await userEvent.click(why);
    expect(why).toHaveAttribute('aria-expanded', 'true');
    // D429: the reasons' words are a part, asked for when a reader first opens one.
    const explanation = await within(card).findByText(words);
    expect(why).toHaveAttribute('aria-controls', explanation.id);

    // Escape closes it from the keyboard, and the button keeps the focus.
    await userEvent.keyboard('{Escape}');
    expect(why).toHaveAttribute('aria-expanded', 'false');
    expect(why).toHaveFocus();
    expect(within(card).queryByText(words)).toBeNull();
  });

  it('a followed publisher’s story says so', async () => {
    latestWith('/latest', 'followed_publisher');
    const why = await screen.findByRole('button', { name: /Why am I seeing/ });
    await userEvent.click(why);
    expect(await screen.findByText('You follow this publisher.')).toBeInTheDocument();
  });

  it('a story without a reason the app knows offers none (never a wrong one)', async () => {
    latestWith('/latest', 'something_new');
    await screen.findByRole('heading', { name: 'Bridge reopens' });
    expect(screen.queryByRole('button', { name: /Why am I seeing/ })).toBeNull();
    expect(normalizeNewsItem({ news_id: 1, title: 'Saved' }).reason).toBeNull();
  });

  it('every reason the server can send has words in en, es and fr', () => {
    expect(REASONS.length).toBeGreaterThan(10);
    for (const reason of REASONS) {
      expect(toReason(reason)).toBe(reason);
      for (const [lang, catalogue] of Object.entries(catalogues)) {
        expect(catalogue[REASON_KEYS[reason]], `${lang} ${reason}`).toBeTruthy();
      }
    }
  });
});
