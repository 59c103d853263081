import { act, fireEvent, render, screen } from '@testing-library/react';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { initI18n } from '../../i18n';
import { PopupHost } from './PopupHost';
import { addPopup, badgeText, emitPopup, POPUP_DURATION_MS } from './popupState';
import { usePopup } from './usePopup';

beforeAll(async () => {
  await initI18n('en');
});

function Trigger({ text, kind }: { text: string; kind?: 'info' | 'error' }) {
  const popup = usePopup();
  return (
    <button type="button" onClick={() => popup.show({ text, kind })}>
      show {text}
    </button>
  );
}

describe('§4.12 popup messages', () => {
  it('§4.12 identical messages are grouped with a repeat counter', () => {
    let { list } = addPopup([], { text: 'Saved' }, 1);
    ({ list } = addPopup(list, { text: 'Saved' }, 2));
    ({ list } = addPopup(list, { text: 'Other' }, 3));
    expect(list.map((m) => [m.id, m.text, m.count])).toEqual([
      [1, 'Saved', 2],
      [3, 'Other', 1],
    ]);
    ({ list } = addPopup(list, { text: 'Saved', kind: 'error' }, 4));
    expect(list).toHaveLength(3);
    ({ list } = addPopup(list, { text: 'Other', group: false }, 5));
    expect(list).toHaveLength(4);
  });

  it('§9.7 the badge shows the count, at most 99 ("99+")', () => {
    expect(badgeText(1)).toBeNull();
    expect(badgeText(2)).toBe('2');
    expect(badgeText(99)).toBe('99');
    expect(badgeText(100)).toBe('99+');
  });

  it('§9.7 a message closes by itself after 3000 ms', () => {
    vi.useFakeTimers();
    render(
      <PopupHost>
        <Trigger text="Hello" />
      </PopupHost>,
    );
    fireEvent.click(screen.getByRole('button', { name: 'show Hello' }));
    expect(screen.getByRole('status')).toHaveTextContent('Hello');
    act(() => vi.advanceTimersByTime(POPUP_DURATION_MS - 1));
    expect(screen.getByRole('status')).toBeInTheDocument();
    act(() => vi.advanceTimersByTime(1));
    expect(screen.queryByRole('status')).not.toBeInTheDocument();
    vi.useRealTimers();
  });

  it('§4.12 a repeated message shows a counter and stays 3000 ms from its latest showing', () => {
    vi.useFakeTimers();
    render(
      <PopupHost>
        <Trigger text="Offline" kind="error" />
      </PopupHost>,
    );
    const button = screen.getByRole('button', { name: 'show Offline' });
    fireEvent.click(button);
    act(() => vi.advanceTimersByTime(2000));
    fireEvent.click(button);
    fireEvent.click(button);
    const alerts = screen.getAllByRole('alert');
    expect(alerts).toHaveLength(1);
    expect(alerts[0]).toHaveTextContent('Offline');
    expect(alerts[0]).toHaveTextContent('Shown 3 times');
    act(() => vi.advanceTimersByTime(2000));
    expect(screen.getByRole('alert')).toBeInTheDocument();
    act(() => vi.advanceTimersByTime(1000));
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    vi.useRealTimers();
  });

  it('§9.7 more than 99 repeats show "99+"', () => {
    render(
      <PopupHost>
        <Trigger text="Again" />
      </PopupHost>,
    );
    const button = screen.getByRole('button', { name: 'show Again' });
    for (let i = 0; i < 120; i++) fireEvent.click(button);
    expect(screen.getByRole('status')).toHaveTextContent('99+');
  });

  it('§4.12 Escape closes the message', () => {
    render(
      <PopupHost>
        <Trigger text="Esc me" />
      </PopupHost>,
    );
    fireEvent.click(screen.getByRole('button', { name: 'show Esc me' }));
    expect(screen.getByRole('status')).toBeInTheDocument();
    fireEvent.keyDown(document, { key: 'Escape' });
    expect(screen.queryByRole('status')).not.toBeInTheDocument();
  });

  it('§4.12 the close button dismisses it, and code outside React can show one', () => {
    render(<PopupHost />);
    act(() => emitPopup({ text: 'From a loader' }));
    expect(screen.getByRole('status')).toHaveTextContent('From a loader');
    fireEvent.click(screen.getByRole('button', { name: 'Dismiss message' }));
    expect(screen.queryByRole('status')).not.toBeInTheDocument();
  });
});
