import './trends.css';

export { TRENDS_PATH, readTrendsPage, type Trend, type TrendsPage } from './api';
export { useTrends } from './hooks';
export { Sparkline } from './components/Sparkline';
export { TopTrends, TrendList, TrendStories, trendPath } from './components/TrendList';
