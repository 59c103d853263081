import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { MAIL_CLIENT_WAIT_MS, watchMailClient } from './mailClient';

describe('§8.7 email client check', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('the wait is 2 seconds', () => {
    expect(MAIL_CLIENT_WAIT_MS).toBe(2000);
  });

  it('no mail client within 2 s: the reader is told', () => {
    const missing = vi.fn();
    watchMailClient(missing);
    vi.advanceTimersByTime(1999);
    expect(missing).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(missing).toHaveBeenCalledOnce();
  });

  it('a mail client that takes the focus: nothing is said', () => {
    const missing = vi.fn();
    watchMailClient(missing);
    vi.advanceTimersByTime(500);
    window.dispatchEvent(new Event('blur'));
    vi.advanceTimersByTime(5000);
    expect(missing).not.toHaveBeenCalled();
  });

  it('a page hidden by the mail client: nothing is said', () => {
    const missing = vi.fn();
    watchMailClient(missing);
    const state = vi.spyOn(document, 'visibilityState', 'get').mockReturnValue('hidden');
    document.dispatchEvent(new Event('visibilitychange'));
    vi.advanceTimersByTime(5000);
    expect(missing).not.toHaveBeenCalled();
    state.mockRestore();
  });
});
