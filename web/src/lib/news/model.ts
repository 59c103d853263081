/**
 * SPEC §3 news item, area and media source as the read API sends them
 * (docs/api-reading.md), and the §3 derived news values, in one place.
 */
import type { components } from '../api/schema';
import { toMillis, toNumber, toText } from '../parse';
import { toReason, type Reason } from './reason';

/** §9.5 news types. */
export const NewsType = { article: 1, video: 3, audio: 4 } as const;

type Schemas = components['schemas'];

/** §3 Area (plus the admin code the read API adds), as the OpenAPI document describes it. */
export type Area = Schemas['AreaDoc'];

/**
 * §3 News item with the flat media fields and the read API's extensions. `reason` is null
 * when the item came without one the app knows (D385): its card then offers no "why".
 */
export type NewsItem = Omit<Schemas['NewsItem'], 'reason'> & { reason: Reason | null };

/** §3 Media source (publisher). */
export type MediaSource = Schemas['MediaDoc'];

/** §3 paged lists: a list plus a next-page token ("" on the last page). */
export interface Page<T> {
  list: T[];
  next_page_token: string;
}

type Raw = Record<string, unknown>;
const asRecord = (value: unknown): Raw =>
  value && typeof value === 'object' ? (value as Raw) : {};

function normalizeArea(raw: unknown): Area {
  const r = asRecord(raw);
  const names = asRecord(r.name_map);
  const name_map: Record<string, string> = {};
  for (const [lang, name] of Object.entries(names)) {
    if (typeof name === 'string' && name) name_map[lang] = name;
  }
  return {
    id: toNumber(r.id),
    name: toText(r.name),
    name_map,
    country: toText(r.country),
    admin_code: toText(r.admin_code),
  };
}

/**
 * Reads a news item from loosely typed JSON (§5.4). Also accepts §3's alternative shape
 * (id, news_title, news_content, news_img_url, create_time and a `media` object).
 */
export function normalizeNewsItem(raw: unknown): NewsItem {
  const r = asRecord(raw);
  const media = asRecord(r.media);
  const text = (...values: unknown[]) => values.map(toText).find((v) => v !== '') ?? '';
  const tags = Array.isArray(r.tags) ? r.tags.map(toText).filter(Boolean) : [];
  return {
    news_id: toNumber(r.news_id) || toNumber(r.id),
    title: text(r.title, r.news_title),
    org_img_url: text(r.org_img_url),
    img_url: text(r.img_url, r.news_img_url),
    thumbnail_url: text(r.thumbnail_url),
    video_url: text(r.video_url),
    voice_url: text(r.voice_url),
    content: text(r.content, r.news_content),
    content_type: text(r.content_type) || 'html',
    content_total_length: toNumber(r.content_total_length),
    description: text(r.description),
    summary: text(r.summary),
    copyrighted: toNumber(r.copyrighted),
    type: toNumber(r.type) || NewsType.article,
    publish_time: toMillis(r.publish_time) || toMillis(r.create_time),
    link_url: text(r.link_url),
    author: text(r.author),
    category_id: text(r.category_id),
    is_hot: toNumber(r.is_hot),
    hot_word_flag: toNumber(r.hot_word_flag),
    tags,
    area_list: Array.isArray(r.area_list) ? r.area_list.map(normalizeArea) : [],
    read_count: toNumber(r.read_count),
    like_count: toNumber(r.like_count),
    share_count: toNumber(r.share_count),
    comment_count: toNumber(r.comment_count),
    media_id: toNumber(r.media_id) || toNumber(media.media_id),
    media_name: text(r.media_name, media.name),
    media_icon: text(r.media_icon, media.icon_url),
    media_home_url: text(r.media_home_url, media.home_url),
    media_follow: toNumber(r.media_follow) || toNumber(media.follow_status),
    lang: text(r.lang),
    cluster_id: toNumber(r.cluster_id),
    cluster_size: Math.max(1, toNumber(r.cluster_size)),
    reason: toReason(r.reason),
  };
}

export function normalizeMediaSource(raw: unknown): MediaSource {
  const r = asRecord(raw);
  return {
    media_id: toNumber(r.media_id),
    name: toText(r.name) || toText(r.media_name),
    icon_url: toText(r.icon_url) || toText(r.media_icon),
    home_url: toText(r.home_url) || toText(r.media_home_url),
    about: toText(r.about),
    contact: toText(r.contact),
    category_id: toText(r.category_id),
    category_top_id: toText(r.category_top_id),
    area1: toText(r.area1),
    area2: toText(r.area2),
    area3: toText(r.area3),
    follow_status: toNumber(r.follow_status),
    city_id: toNumber(r.city_id),
    lang: toText(r.lang),
    item_count: toNumber(r.item_count),
  };
}

export function normalizePage<T>(raw: unknown, item: (value: unknown) => T): Page<T> {
  const r = asRecord(raw);
  return {
    list: Array.isArray(r.list) ? r.list.map(item) : [],
    next_page_token: toText(r.next_page_token),
  };
}

/* §3 derived news values. */

type Media = Pick<NewsItem, 'type'>;
type Images = Pick<NewsItem, 'thumbnail_url' | 'org_img_url' | 'img_url'>;

/** §3: an item is a video when its type is 3. */
export function isVideo(item: Media): boolean {
  return item.type === NewsType.video;
}

/** §3: an item is audio when its type is 4. */
export function isAudio(item: Media): boolean {
  return item.type === NewsType.audio;
}

/** §3: the thumbnail is thumbnail_url, else the original image, else img_url. */
export function thumbnailOf(item: Images): string {
  return item.thumbnail_url || item.org_img_url || item.img_url || '';
}

/** §3: the main image is the original image, else img_url. */
export function mainImageOf(item: Omit<Images, 'thumbnail_url'>): string {
  return item.org_img_url || item.img_url || '';
}

/** §3: an item has an image if a thumbnail exists. */
export function hasImage(item: Images): boolean {
  return thumbnailOf(item) !== '';
}

/** The place an item is about, in the reader's language. */
export function areaName(area: Area, lang: string): string {
  return area.name_map[lang] || area.name;
}
