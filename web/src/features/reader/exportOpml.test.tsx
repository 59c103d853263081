import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { envelope, type Handler } from '../../test/fakeServer';
import { installIntersectionObserver } from '../../test/intersection';
import { feedPage, ledger } from '../../test/newsFixtures';
import { renderApp } from '../../test/renderApp';
import { failed, signedIn } from './test/fixtures';

const OPML = '/api/user/follows/opml';
const FILE = '<?xml version="1.0" encoding="UTF-8"?>\n<opml version="2.0"></opml>\n';

let saved: { name: string; blob: Blob }[] = [];

/** jsdom's Blob has no text(): read it as a browser of old would. */
const read = (blob: Blob) =>
  new Promise<string>((resolve) => {
    const reader = new FileReader();
    reader.onload = () => resolve(reader.result as string);
    reader.readAsText(blob);
  });

beforeEach(() => {
  installIntersectionObserver();
  saved = [];
  // jsdom has no object URLs and does not follow a download link: record what would be saved.
  const blobs = new Map<string, Blob>();
  vi.stubGlobal(
    'URL',
    Object.assign(URL, {
      createObjectURL: (blob: Blob) => {
        const url = `blob:test/${blobs.size}`;
        blobs.set(url, blob);
        return url;
      },
      revokeObjectURL: () => undefined,
    }),
  );
  vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (
    this: HTMLAnchorElement,
  ) {
    saved.push({ name: this.download, blob: blobs.get(this.href)! });
  });
});

afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
});

function open(routes: Record<string, Handler>) {
  return renderApp('/user/following', {
    cookies: signedIn.cookies,
    routes: {
      ...signedIn.routes,
      'POST /api/user/media/followList': () =>
        envelope({ list: [{ ...ledger, follow_status: 1, followed_at: 1 }] }),
      'POST /api/user/news/followingFeed': () => envelope(feedPage([], '')),
      ...routes,
    },
  });
}

describe('D377 export what the reader follows as OPML', () => {
  it('saves the file the server writes, under its name', async () => {
    const { server } = open({
      [`POST ${OPML}`]: () => envelope({ filename: 'localwire-follows.opml', opml: FILE }),
    });
    await userEvent.click(await screen.findByRole('button', { name: 'Export as OPML' }));
    await waitFor(() => expect(saved).toHaveLength(1));
    expect(saved[0].name).toBe('localwire-follows.opml');
    expect(await read(saved[0].blob)).toBe(FILE);
    expect(saved[0].blob.type).toBe('text/x-opml;charset=utf-8');
    expect(server.requests.filter((r) => r.path === OPML)).toHaveLength(1);
  });

  it('says so when the export fails, and saves nothing', async () => {
    open({ [`POST ${OPML}`]: failed });
    await userEvent.click(await screen.findByRole('button', { name: 'Export as OPML' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(/server/i);
    expect(saved).toHaveLength(0);
  });
});
