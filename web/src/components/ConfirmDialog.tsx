import { useId, useRef, type ReactNode } from 'react';
import { useTranslation } from '../i18n';
import { useModalDialog } from './useModalDialog';

/**
 * A question before something that cannot be undone (delete the account, remove a feed):
 * an alert dialog that names what goes, Cancel first, the refusal's message inside it, and
 * both buttons held while the call runs.
 */
export function ConfirmDialog({
  title,
  children,
  confirmLabel,
  onCancel,
  onConfirm,
  busy,
  error,
}: {
  title: string;
  /** What goes, read out as the dialog's description. */
  children: ReactNode;
  confirmLabel: string;
  onCancel: () => void;
  onConfirm: () => void;
  busy: boolean;
  error: string | null;
}) {
  const { t } = useTranslation();
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const whatId = useId();
  useModalDialog(ref, onCancel);
  return (
    <dialog
      ref={ref}
      className="dialog"
      role="alertdialog"
      aria-labelledby={titleId}
      aria-describedby={whatId}
    >
      <h2 id={titleId} className="dialog__title">
        {title}
      </h2>
      <div id={whatId}>{children}</div>
      {error && (
        <p role="alert" className="dialog__error">
          {error}
        </p>
      )}
      <div className="dialog__actions">
        <button type="button" className="button" onClick={onCancel} disabled={busy}>
          {t('Account_Cancel')}
        </button>
        <button
          type="button"
          className="button button--danger"
          onClick={onConfirm}
          disabled={busy}
          aria-busy={busy}
        >
          {confirmLabel}
        </button>
      </div>
    </dialog>
  );
}
