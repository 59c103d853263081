import type { InfiniteData, UseInfiniteQueryResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { useFeedAds } from '../../ads';
import type { NewsItem, Page } from '../../../lib/news';
import { NewsCard, type CardVariant } from './NewsCard';
import { PagedList } from './PagedList';

type PagedQuery<P> = UseInfiniteQueryResult<InfiniteData<P, string>, Error>;

/** A paged list of stories as cards. */
export function NewsFeed({
  query,
  limit,
  empty,
  terms,
  variant = 'row',
  leadFirst = false,
}: {
  query: PagedQuery<Page<NewsItem>>;
  limit?: number;
  empty: ReactNode;
  terms?: readonly string[];
  variant?: CardVariant;
  leadFirst?: boolean;
}) {
  // Ad slots (D345) only in paging feeds: a home section's few cards are the server's
  // first screen, which a slot would push down once the app took over.
  const feedAds = useFeedAds();
  return (
    <PagedList<NewsItem, Page<NewsItem>>
      query={query}
      itemKey={(item) => item.news_id}
      limit={limit}
      empty={empty}
      after={limit ? undefined : (feedAds ?? undefined)}
      renderItem={(item, index) => (
        <NewsCard item={item} terms={terms} variant={leadFirst && index === 0 ? 'lead' : variant} />
      )}
    />
  );
}
