import { envelope, guestUser, type Handler } from '../../../test/fakeServer';
import { ledger, newsItem } from '../../../test/newsFixtures';

export const NOW = Date.now();

/** A story in the §3 alternative shape, as the reader's lists answer it. */
export function altNews(id: number, title: string, overrides: Record<string, unknown> = {}) {
  return {
    id,
    news_id: id,
    news_title: title,
    news_content: '',
    news_img_url: '',
    create_time: NOW - 3 * 3600_000,
    publish_time: NOW - 5 * 3600_000,
    type: 1,
    media: ledger,
    ...overrides,
  };
}

export const detail = () =>
  envelope({
    news: newsItem(1042, { title: 'Council approves the new budget' }),
    media: ledger,
    cluster: [],
    related: [],
  });

/** A signed-in reader (an account, so /user pages open). */
export const signedIn = {
  cookies: { deviceId: 'd', token: 't' },
  routes: {
    'POST /api/user/info': () =>
      envelope({ ...guestUser, account_type: 3, name: 'Ada', email: 'ada@example.org' }),
  } as Record<string, Handler>,
};

export const refused = (message = 'no') => ({ status: 400, body: { code: 400, message } });
export const failed = () => ({ status: 503, body: { code: 503, message: 'busy' } });

/** An answer the test lets go of when it wants (to see the optimistic state first). */
export function held<T>() {
  let release!: (value: T) => void;
  const promise = new Promise<T>((resolve) => {
    release = resolve;
  });
  return { promise, release };
}
