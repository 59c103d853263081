import { HistoryScreen } from '../../features/history';

/** SPEC §2.9 today in history (D290–D292). */
export default function TodayInHistory() {
  return <HistoryScreen />;
}
