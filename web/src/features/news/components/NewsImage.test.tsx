import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, fireEvent, render } from '@testing-library/react';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ReactNode } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ServicesContext, type Services } from '../../../lib/services';
import { appConfigKey } from '../../user';
import { installIntersectionObserver } from '../../../test/intersection';
import {
  DEFAULT_IMAGE_ATTEMPTS,
  forgetLoaded,
  IMAGE_CACHE_SIZE,
  IMAGE_THROTTLE_MS,
  isRemembered,
  NewsImage,
  PLACEHOLDER_RATIO,
  rememberLoaded,
} from './NewsImage';

const SRC = 'https://img.example.org/a.jpg';

function setup(node: ReactNode, config?: Record<string, unknown>) {
  const queryClient = new QueryClient();
  if (config) queryClient.setQueryData(appConfigKey, config);
  const services = { api: { get: vi.fn() } } as unknown as Services;
  const io = installIntersectionObserver();
  const view = render(
    <ServicesContext.Provider value={services}>
      <QueryClientProvider client={queryClient}>{node}</QueryClientProvider>
    </ServicesContext.Provider>,
  );
  const box = () => view.container.querySelector('.news-image') as HTMLElement;
  const img = () => view.container.querySelector('img');
  return { ...view, io, box, img };
}

beforeEach(() => forgetLoaded());
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('§4 images', () => {
  it('§9.10 the placeholder is 56.3 % as high as it is wide (no layout shift)', () => {
    expect(PLACEHOLDER_RATIO).toBe(0.563);
    const css = readFileSync(join(process.cwd(), 'src/features/news/news.css'), 'utf8');
    const rule = /\.news-image\s*{([^}]*)}/.exec(css)?.[1] ?? '';
    expect(rule).toMatch(/aspect-ratio:\s*1000\s*\/\s*563/);
    expect(rule).toMatch(/inline-size:\s*100%/);
  });

  it('§4 starts as a placeholder with a loading marker, without the real source', () => {
    const { box, img } = setup(<NewsImage src={SRC} alt="" />);
    expect(box()).toHaveAttribute('data-state', 'loading');
    expect(box().querySelector('.news-image__marker')).not.toBeNull();
    expect(img()).toBeNull();
  });

  it('§9.11 waits until the box is within 1.3 viewports, then swaps to the real source', () => {
    const { box, img, io } = setup(<NewsImage src={SRC} alt="Council chamber" />);
    expect(io.instances[0].rootMargin).toBe('30% 0px');
    io.setNear(box(), false);
    expect(img()).toBeNull();
    io.setNear(box(), true);
    expect(img()).toHaveAttribute('src', SRC);
    expect(img()).toHaveAttribute('alt', 'Council chamber');
    expect(box()).toHaveAttribute('data-state', 'loading');
    fireEvent.load(img()!);
    expect(box()).toHaveAttribute('data-state', 'loaded');
    expect(box().querySelector('.news-image__marker')).toBeNull();
  });

  it('D147 the largest image of the first screen is asked for at once, first, keeping its placeholder until it loads', () => {
    const { box, img, io } = setup(<NewsImage src={SRC} alt="" eager />);
    expect(io.instances).toHaveLength(0);
    expect(img()).toHaveAttribute('src', SRC);
    expect(img()).toHaveAttribute('fetchpriority', 'high');
    expect(box()).toHaveAttribute('data-state', 'loading');
    // Shown as it arrives (news.css: no fade, no marker over it).
    expect(box()).toHaveAttribute('data-eager');
    expect(box().querySelector('.news-image__marker')).toBeNull();
    fireEvent.load(img()!);
    expect(box()).toHaveAttribute('data-state', 'loaded');
  });

  it('§9.11 other images are not marked high priority', () => {
    const { box, img, io } = setup(<NewsImage src={SRC} alt="" />);
    io.setNear(box(), true);
    expect(img()).not.toHaveAttribute('fetchpriority');
  });

  it('§4 on error shows the error image, then tries again after 200 ms, up to the default 3 attempts', () => {
    vi.useFakeTimers();
    const { box, img, io } = setup(<NewsImage src={SRC} alt="Bridge" />);
    io.setNear(box(), true);
    expect(DEFAULT_IMAGE_ATTEMPTS).toBe(3);
    for (let attempt = 1; attempt <= 3; attempt++) {
      expect(box()).toHaveAttribute('data-attempt', String(attempt));
      fireEvent.error(img()!);
      expect(box()).toHaveAttribute('data-state', 'error');
      expect(box().querySelector('.news-image__error')).toHaveAttribute('aria-label', 'Bridge');
      expect(img()).toBeNull();
      act(() => vi.advanceTimersByTime(IMAGE_THROTTLE_MS - 1));
      expect(img()).toBeNull();
      act(() => vi.advanceTimersByTime(1));
      if (attempt < 3) expect(img()).toHaveAttribute('src', SRC);
    }
    // After the third failure it stops.
    act(() => vi.advanceTimersByTime(10 * IMAGE_THROTTLE_MS));
    expect(img()).toBeNull();
    expect(box()).toHaveAttribute('data-state', 'error');
    expect(box()).toHaveAttribute('data-attempt', '3');
  });

  it('§9.11 the app setting for attempts (1) comes from the app config', () => {
    vi.useFakeTimers();
    const { box, img, io } = setup(<NewsImage src={SRC} alt="" />, { image_attempts: 1 });
    io.setNear(box(), true);
    fireEvent.error(img()!);
    act(() => vi.advanceTimersByTime(1000));
    expect(img()).toBeNull();
    expect(box()).toHaveAttribute('data-state', 'error');
    expect(box().querySelector('.news-image__error')).toHaveAttribute('aria-hidden', 'true');
  });

  it('§4 a retry that loads ends in the loaded state', () => {
    vi.useFakeTimers();
    const { box, img, io } = setup(<NewsImage src={SRC} alt="" attempts={2} />);
    io.setNear(box(), true);
    fireEvent.error(img()!);
    act(() => vi.advanceTimersByTime(IMAGE_THROTTLE_MS));
    fireEvent.load(img()!);
    expect(box()).toHaveAttribute('data-state', 'loaded');
  });

  it('§9.11 a source that loaded before shows at once; the cache keeps 200 entries', () => {
    rememberLoaded(SRC);
    const { box, img } = setup(<NewsImage src={SRC} alt="" />);
    expect(box()).toHaveAttribute('data-state', 'loaded');
    expect(img()).toHaveAttribute('src', SRC);
    for (let i = 0; i < IMAGE_CACHE_SIZE; i++) rememberLoaded(`https://img.example.org/${i}.jpg`);
    expect(isRemembered(SRC)).toBe(false);
    expect(isRemembered('https://img.example.org/0.jpg')).toBe(true);
  });

  it('§4 no source at all is the error state', () => {
    const { box } = setup(<NewsImage src="" alt="" />);
    expect(box()).toHaveAttribute('data-state', 'error');
  });
});
