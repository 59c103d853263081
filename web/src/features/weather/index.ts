import './weather.css';

export { WeatherDetail } from './components/WeatherDetail';
export { WeatherWidget } from './components/WeatherWidget';
export { useWeather } from './hooks';
export { codeIcon, codeKey, WMO_CODES } from './codes';
export type { WeatherDoc } from './api';
