import { describe, expect, it } from 'vitest';
import { newsItem } from '../../test/newsFixtures';
import { readDetail, readFeedPage } from './api';
import {
  hasImage,
  isAudio,
  isVideo,
  mainImageOf,
  normalizeNewsItem,
  thumbnailOf,
  type NewsItem,
} from './model';

const item = (overrides: Record<string, unknown> = {}): NewsItem =>
  normalizeNewsItem(newsItem(1, overrides));

describe('§3 derived news values', () => {
  it('§3 an item is a video when its type is 3', () => {
    expect(isVideo(item({ type: 3 }))).toBe(true);
    expect(isVideo(item({ type: 1 }))).toBe(false);
    expect(isVideo(item({ type: 4 }))).toBe(false);
  });

  it('§3 an item is audio when its type is 4', () => {
    expect(isAudio(item({ type: 4 }))).toBe(true);
    expect(isAudio(item({ type: 3 }))).toBe(false);
  });

  it('§3 the thumbnail is thumbnail_url, else the original image, else img_url', () => {
    const images = { thumbnail_url: 't', org_img_url: 'o', img_url: 'i' };
    expect(thumbnailOf(images)).toBe('t');
    expect(thumbnailOf({ ...images, thumbnail_url: '' })).toBe('o');
    expect(thumbnailOf({ thumbnail_url: '', org_img_url: '', img_url: 'i' })).toBe('i');
    expect(thumbnailOf({ thumbnail_url: '', org_img_url: '', img_url: '' })).toBe('');
  });

  it('§3 the main image is the original image, else img_url', () => {
    expect(mainImageOf({ org_img_url: 'o', img_url: 'i' })).toBe('o');
    expect(mainImageOf({ org_img_url: '', img_url: 'i' })).toBe('i');
    expect(mainImageOf({ org_img_url: '', img_url: '' })).toBe('');
  });

  it('§3 an item has an image if a thumbnail exists', () => {
    expect(hasImage({ thumbnail_url: '', org_img_url: '', img_url: 'i' })).toBe(true);
    expect(hasImage({ thumbnail_url: '', org_img_url: '', img_url: '' })).toBe(false);
  });
});

describe('§3 news item shapes', () => {
  it('§3 reads the flat shape with its media fields and extensions', () => {
    const news = item({ cluster_size: 3, cluster_id: 311, media_follow: 1 });
    expect(news).toMatchObject({
      news_id: 1,
      media_id: 7,
      media_name: 'The Capitol Ledger',
      cluster_size: 3,
      media_follow: 1,
      area_list: [{ id: 4140963, name: 'Washington', admin_code: 'DC' }],
    });
  });

  it('§3 reads the alternative shape (id, news_title, news_content, news_img_url, create_time, media)', () => {
    const news = normalizeNewsItem({
      id: 9,
      news_title: 'Alt title',
      news_content: '<p>Body</p>',
      news_img_url: 'https://img.example.org/alt.jpg',
      create_time: 1763640000,
      media: { media_id: 3, name: 'Alt Media', icon_url: 'https://img.example.org/i.png' },
    });
    expect(news).toMatchObject({
      news_id: 9,
      title: 'Alt title',
      content: '<p>Body</p>',
      img_url: 'https://img.example.org/alt.jpg',
      publish_time: 1763640000000,
      media_id: 3,
      media_name: 'Alt Media',
      cluster_size: 1,
      type: 1,
    });
    expect(thumbnailOf(news)).toBe('https://img.example.org/alt.jpg');
  });

  it('§5.4 odd values become safe defaults', () => {
    const news = normalizeNewsItem({
      news_id: '12',
      type: 'x',
      tags: ['a', 3, null],
      area_list: 'no',
    });
    expect(news.news_id).toBe(12);
    expect(news.type).toBe(1);
    expect(news.tags).toEqual(['a', '3']);
    expect(news.area_list).toEqual([]);
    expect(news.title).toBe('');
  });

  it('reads a feed page with its context and a detail with cluster and related', () => {
    const page = readFeedPage({
      list: [newsItem(1)],
      next_page_token: 'p2',
      context: { scope: 'nearby', area_name: 'Washington, DC' },
    });
    expect(page.list).toHaveLength(1);
    expect(page.next_page_token).toBe('p2');
    expect(page.context.scope).toBe('nearby');
    const detail = readDetail({ news: newsItem(1), cluster: [newsItem(2)], related: null });
    expect(detail.cluster[0].news_id).toBe(2);
    expect(detail.related).toEqual([]);
    // Without a media object the publisher comes from the item's flat fields.
    expect(detail.media.name).toBe('The Capitol Ledger');
  });
});
