import './admin.css';

/** The operator's screens (issue 21, D340–D343): usage and feeds at /admin. */
export { AdminScreen } from './components/AdminScreen';
