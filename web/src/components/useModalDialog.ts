import { useEffect, type RefObject } from 'react';

/**
 * Shows a `<dialog>` as a modal while the component is mounted (or as an open dialog where
 * the browser lacks `showModal`), calls `onClose` when the browser closes it (Escape), and
 * closes it when the component goes. One place for the three dialogs (city picker, sign-in,
 * delete account).
 */
export function useModalDialog(
  ref: RefObject<HTMLDialogElement | null>,
  onClose: () => void,
): void {
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (typeof dialog.showModal === 'function') {
      if (!dialog.open) dialog.showModal();
    } else {
      dialog.setAttribute('open', '');
    }
    const onNativeClose = () => onClose();
    dialog.addEventListener('close', onNativeClose);
    return () => {
      dialog.removeEventListener('close', onNativeClose);
      if (dialog.open && typeof dialog.close === 'function') dialog.close();
    };
  }, [ref, onClose]);
}
