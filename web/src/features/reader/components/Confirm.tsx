import { useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from '../../../i18n';
import '../reader.css';

/**
 * A button whose action needs a second yes: the question and the two answers appear in
 * place (no modal to trap focus in), the confirming answer takes the focus, and
 * cancelling gives it back to the button.
 */
export function ConfirmAction({
  label,
  question,
  confirmLabel,
  onConfirm,
  disabled = false,
}: {
  label: string;
  question: string;
  confirmLabel: string;
  onConfirm: () => void;
  disabled?: boolean;
}) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const questionId = useId();
  const confirmRef = useRef<HTMLButtonElement>(null);
  const triggerRef = useRef<HTMLButtonElement>(null);
  const wasOpen = useRef(false);

  useEffect(() => {
    if (open) confirmRef.current?.focus();
    else if (wasOpen.current) triggerRef.current?.focus();
    wasOpen.current = open;
  }, [open]);

  if (!open) {
    return (
      <button
        ref={triggerRef}
        type="button"
        className="button"
        disabled={disabled}
        onClick={() => setOpen(true)}
      >
        {label}
      </button>
    );
  }
  return (
    <div className="confirm" role="alertdialog" aria-modal="false" aria-labelledby={questionId}>
      <p id={questionId} className="confirm__question">
        {question}
      </p>
      <div className="confirm__answers">
        <button
          ref={confirmRef}
          type="button"
          className="button button--danger"
          onClick={() => {
            wasOpen.current = false;
            setOpen(false);
            onConfirm();
          }}
        >
          {confirmLabel}
        </button>
        <button type="button" className="button" onClick={() => setOpen(false)}>
          {t('Reader_Cancel')}
        </button>
      </div>
    </div>
  );
}
