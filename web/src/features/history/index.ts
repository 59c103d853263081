import './history.css';

export * from './api';
export { useHistoryDay } from './hooks';
export { HistoryScreen } from './components/HistoryScreen';
