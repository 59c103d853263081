import { useQuery } from '@tanstack/react-query';
import { useEffect, useRef, type ReactNode } from 'react';
import { useTranslation } from '../../i18n';
import { useRouteHandle } from '../../lib/routeHandle';
import { useServices } from '../../lib/services';
import { reportEvent } from '../report';
import { appConfigKey, fetchAppConfig } from '../user';
import {
  feedSlotAfter,
  pickCreative,
  placementId,
  type AdClient,
  type Creative,
  type Placement,
} from './pick';

/**
 * The operator's ad client (D345), from one source: the app config's `ads`, which the
 * page carries inline so a slot knows at its first render whether it shows (nothing
 * moves later, no call is made). Without a page payload (`vite dev`) the app config is
 * asked. `null`: no ad client, no slot.
 */
export function useAdClient(): AdClient | null {
  const { payload, api } = useServices();
  const inline = payload?.ads;
  const { data } = useQuery({
    queryKey: appConfigKey,
    queryFn: () => fetchAppConfig(api),
    staleTime: Infinity,
    enabled: inline === undefined,
  });
  if (inline !== undefined) return inline;
  return data?.ads ?? null;
}

/**
 * For a paging feed: what follows the story at an index (an ad slot after the 6th, then
 * every 10th), or null when this page has no feed ads at all, so a feed without ads
 * renders exactly as before.
 */
export function useFeedAds(): ((index: number) => ReactNode) | null {
  const client = useAdClient();
  const { locale } = useRouteHandle();
  if (!client || !pickCreative(client, 'feed', locale, 0)) return null;
  return (index) => {
    const slot = feedSlotAfter(index);
    return slot === null ? null : <AdSlot placement="feed" slot={slot} />;
  };
}

/**
 * A marked ad slot (issue 21, D345): with no ad client configured it renders nothing and
 * reports nothing. Otherwise it shows the operator's text ad for its placement and the
 * page's language, labelled "Sponsored", and reports should_show, ping_back (once, when
 * half of it is on screen) and ad_click through the app's one reporter (§3.17).
 */
export function AdSlot({ placement, slot = 0 }: { placement: Placement; slot?: number }) {
  const client = useAdClient();
  const { def, locale } = useRouteHandle();
  const creative = client ? pickCreative(client, placement, locale, slot) : null;
  if (!client || !creative) return null;
  return (
    <ShownAd
      key={`${creative.id}:${slot}`}
      client={client}
      creative={creative}
      scene={def?.name ?? ''}
    />
  );
}

/** How much of the box must be on screen for it to count as seen. */
const VISIBLE_RATIO = 0.5;

function ShownAd({
  client,
  creative,
  scene,
}: {
  client: AdClient;
  creative: Creative;
  scene: string;
}) {
  const { t } = useTranslation();
  const box = useRef<HTMLElement>(null);
  const mountedAt = useRef(0);
  const shown = useRef<{ show_time: number; load_time: number } | null>(null);
  const decided = useRef(false);
  const base = {
    adn_id: client.adn_id,
    placement_id: placementId(client, creative),
    rule_id: creative.rule_id,
    scene,
  };
  const baseRef = useRef(base);
  useEffect(() => {
    baseRef.current = base;
  });

  // The slot has decided to show (once per slot, even when effects run twice).
  useEffect(() => {
    if (decided.current) return;
    decided.current = true;
    mountedAt.current = Date.now();
    reportEvent('should_show', baseRef.current);
  }, []);

  // Seen: the first time half of the box is on screen.
  useEffect(() => {
    const element = box.current;
    if (!element || shown.current) return;
    const seen = () => {
      if (shown.current) return;
      const now = Date.now();
      shown.current = { show_time: now, load_time: Math.max(0, now - mountedAt.current) };
      reportEvent('ping_back', {
        ...baseRef.current,
        revenue: creative.revenue,
        floor_price: creative.floor_price,
        ...shown.current,
      });
    };
    if (typeof IntersectionObserver === 'undefined') {
      seen();
      return;
    }
    const io = new IntersectionObserver(
      (records) => {
        if (records.some((r) => r.isIntersecting)) {
          io.disconnect();
          seen();
        }
      },
      { threshold: VISIBLE_RATIO },
    );
    io.observe(element);
    return () => io.disconnect();
  }, [creative.revenue, creative.floor_price]);

  const onClick = () => {
    reportEvent('ad_click', {
      ...base,
      revenue: creative.revenue,
      floor_price: creative.floor_price,
      click_time: Date.now(),
      show_time: shown.current?.show_time ?? 0,
      load_time: shown.current?.load_time ?? 0,
    });
  };

  return (
    <aside
      ref={box}
      className="ad-slot"
      data-placement={creative.placement}
      aria-label={t('Ad_Sponsored')}
    >
      <p className="ad-slot__label">{t('Ad_Sponsored')}</p>
      <a
        className="ad-slot__link"
        href={creative.url}
        target="_blank"
        rel="sponsored noopener noreferrer"
        onClick={onClick}
      >
        {creative.title}
        <span className="visually-hidden"> {t('Ad_NewTab')}</span>
      </a>
      <p className="ad-slot__sponsor">{t('Ad_By', { sponsor: creative.sponsor })}</p>
    </aside>
  );
}
