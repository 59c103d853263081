import { HistoryScreen } from '../../features/history';
import { loadMessages } from '../../i18n';

/** This screen’s own messages are a part of their own (D429). */
export const ready = loadMessages('history');

/** SPEC §2.9 today in history (D290–D292). */
export default function TodayInHistory() {
  return <HistoryScreen />;
}
