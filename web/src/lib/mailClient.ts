/**
 * SPEC §8.7: a `mailto:` link that does not open a mail client within 2 seconds tells the
 * reader 'Please check if your email client is installed'. A mail client that opens takes
 * the focus (the window blurs) or hides the page; neither within the wait means none came.
 */

/** §8.7: how long a mail client has to open. */
export const MAIL_CLIENT_WAIT_MS = 2000;

/**
 * Call when a `mailto:` link is followed. `onMissing` runs if, within the wait, the window
 * neither lost the focus nor was hidden. Returns a function that stops watching.
 */
export function watchMailClient(
  onMissing: () => void,
  { win = window, waitMs = MAIL_CLIENT_WAIT_MS }: { win?: Window; waitMs?: number } = {},
): () => void {
  const doc = win.document;
  const opened = () => stop();
  const onVisibility = () => {
    if (doc.visibilityState === 'hidden') stop();
  };
  const timer = win.setTimeout(() => {
    stop();
    onMissing();
  }, waitMs);
  function stop() {
    win.clearTimeout(timer);
    win.removeEventListener('blur', opened);
    doc.removeEventListener('visibilitychange', onVisibility);
  }
  win.addEventListener('blur', opened);
  doc.addEventListener('visibilitychange', onVisibility);
  return stop;
}
