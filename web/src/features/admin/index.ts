import './admin.css';
import { loadMessages } from '../../i18n';

/** The operator's screens (issue 21, D340–D343): usage and feeds at /admin. */
export { AdminScreen } from './components/AdminScreen';

/**
 * The operator's messages are a catalogue of their own, so no reader's page loads them
 * (D423); the screen renders once they are in.
 */
export const adminMessages = loadMessages('admin');
