import { useTranslation } from '../i18n';
import { statusText } from '../lib/api';

export interface ErrorInfo {
  status?: number;
  /** The server's data code, shown in parentheses when it adds something. */
  code?: number;
  message?: string;
  url?: string;
  stack?: string;
}

/**
 * SPEC §2.25 generic error screen: status code, optional data code in parentheses, the
 * message (or the status message, or 'Unknown error'), optional URL and stack, and a
 * back button (Web_Back) to '/'.
 */
export function ErrorScreen({ status, code, message, url, stack }: ErrorInfo) {
  const { t } = useTranslation();
  const text =
    (message && message.trim()) ||
    (status !== undefined ? statusText(status) : undefined) ||
    t('Web_UnknownError');
  return (
    <section className="error-screen" aria-labelledby="error-title">
      <p className="error-screen__status">
        {status !== undefined && status > 0 && <span className="error-screen__code">{status}</span>}
        {code !== undefined && code !== status && (
          <span className="error-screen__data-code"> ({code})</span>
        )}
      </p>
      <h1 id="error-title" className="error-screen__message" tabIndex={-1}>
        {text}
      </h1>
      {url && (
        <p className="error-screen__url">
          <span>{t('Web_ErrorAddress')}: </span>
          <code>{url}</code>
        </p>
      )}
      {stack && (
        <details className="error-screen__stack">
          <summary>{t('Web_ErrorDetails')}</summary>
          <pre>{stack}</pre>
        </details>
      )}
      <p>
        {/* A full page load: after a fatal error the app starts clean. */}
        <a className="button button--primary" href="/">
          {t('Web_Back')}
        </a>
      </p>
    </section>
  );
}
