import {
  createContext,
  useCallback,
  useEffect,
  useMemo,
  useRef,
  useState,
  type ReactNode,
} from 'react';
import { useTranslation } from '../../i18n';
import {
  addPopup,
  badgeText,
  onPopup,
  removePopup,
  type PopupInput,
  type PopupMessage,
} from './popupState';
import './popup.css';

export interface PopupApi {
  show: (input: PopupInput) => number;
  close: (id: number) => void;
}

export const PopupContext = createContext<PopupApi | null>(null);

/** Holds the open messages, their timers, Escape handling and the live region. */
export function PopupHost({ children }: { children?: ReactNode }) {
  const { t } = useTranslation();
  const [messages, setMessages] = useState<PopupMessage[]>([]);
  const listRef = useRef<PopupMessage[]>([]);
  const nextId = useRef(1);
  const timers = useRef(new Map<number, ReturnType<typeof setTimeout>>());

  const commit = useCallback((list: PopupMessage[]) => {
    listRef.current = list;
    setMessages(list);
  }, []);

  const close = useCallback(
    (id: number) => {
      clearTimeout(timers.current.get(id));
      timers.current.delete(id);
      commit(removePopup(listRef.current, id));
    },
    [commit],
  );

  const show = useCallback(
    (input: PopupInput) => {
      const { list, id } = addPopup(listRef.current, input, nextId.current);
      if (id === nextId.current) nextId.current += 1;
      commit(list);
      // A repeated message stays for a full duration from its latest showing.
      clearTimeout(timers.current.get(id));
      const entry = list.find((m) => m.id === id)!;
      if (entry.duration > 0) {
        timers.current.set(
          id,
          setTimeout(() => close(id), entry.duration),
        );
      }
      return id;
    },
    [close, commit],
  );

  useEffect(() => onPopup((input) => void show(input)), [show]);

  useEffect(() => {
    const pending = timers.current;
    return () => {
      for (const timer of pending.values()) clearTimeout(timer);
    };
  }, []);

  // Escape closes the newest message.
  useEffect(() => {
    if (messages.length === 0) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== 'Escape') return;
      const newest = listRef.current.at(-1);
      if (newest) close(newest.id);
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [messages.length, close]);

  const api = useMemo(() => ({ show, close }), [show, close]);

  return (
    <PopupContext.Provider value={api}>
      {children}
      <section className="popups" aria-label={t('Web_Notifications')}>
        {messages.map((message) => {
          const badge = badgeText(message.count);
          return (
            <div
              key={message.id}
              className={`popup popup--${message.kind}`}
              role={message.kind === 'error' ? 'alert' : 'status'}
              aria-live={message.kind === 'error' ? 'assertive' : 'polite'}
              aria-atomic="true"
            >
              <span className="popup__text">{message.text}</span>
              {badge && (
                <span
                  className="popup__badge"
                  title={t('Web_RepeatCount', { count: message.count })}
                >
                  <span aria-hidden="true">{badge}</span>
                  <span className="visually-hidden">
                    {t('Web_RepeatCount', { count: message.count })}
                  </span>
                </span>
              )}
              <button
                type="button"
                className="popup__close"
                aria-label={t('Web_Dismiss')}
                onClick={() => close(message.id)}
              >
                <span aria-hidden="true">×</span>
              </button>
            </div>
          );
        })}
      </section>
    </PopupContext.Provider>
  );
}
