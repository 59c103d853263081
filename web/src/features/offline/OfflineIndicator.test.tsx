import { screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderApp } from '../../test/renderApp';
import { OUTBOX_KEY, ownerOf } from './outbox';

function setOnline(online: boolean) {
  vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(online);
  window.dispatchEvent(new Event(online ? 'online' : 'offline'));
}

describe('issue 31 the honest offline indicator', () => {
  afterEach(() => vi.restoreAllMocks());

  it('says nothing while online with nothing waiting', async () => {
    renderApp('/setting');
    await screen.findByRole('main');
    expect(screen.queryByText(/offline/i)).not.toBeInTheDocument();
  });

  it('says when the browser is offline, and how many changes wait to be sent', async () => {
    localStorage.setItem(
      OUTBOX_KEY,
      JSON.stringify([
        {
          key: 'save:1',
          path: '/user/news/collect',
          body: { news_id: 1 },
          owner: ownerOf('tok-guest'),
          queuedAt: 1,
        },
      ]),
    );
    setOnline(false);
    renderApp('/setting');
    expect(
      await screen.findByText(
        "You're offline. Pages and stories you opened before still read here.",
      ),
    ).toBeInTheDocument();
    expect(screen.getByText("Changes to send when you're back online: 1")).toBeInTheDocument();
    setOnline(true);
    await waitFor(() => expect(screen.queryByText(/^You're offline/)).not.toBeInTheDocument());
  });
});
