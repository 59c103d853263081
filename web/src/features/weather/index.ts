import './weather.css';

export { WeatherDetail } from './components/WeatherDetail';
export { WeatherWidget } from './components/WeatherWidget';
export { WeatherAlerts } from './components/WeatherAlerts';
export { AlertBanner } from './components/AlertBanner';
export { useWeather, useWeatherAlerts } from './hooks';
export { codeIcon, codeKey, WMO_CODES } from './codes';
export type { WeatherDoc } from './api';
export type { AlertsDoc, AlertItem } from './alerts';
