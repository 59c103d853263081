import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { envelope, guestUser } from '../../test/fakeServer';
import { installIntersectionObserver } from '../../test/intersection';
import { renderApp } from '../../test/renderApp';
import type { WeatherDoc } from './api';
import { codeIcon, codeKey, WMO_CODES } from './codes';
import en from '../../i18n/en.json';

beforeEach(() => {
  installIntersectionObserver();
});

const HOUR = 3_600_000;
/** The app's start-up runs first; on a busy machine that takes more than the default second. */
const SLOW = { timeout: 5000 };
const NOW = Date.UTC(2026, 10, 25, 19, 15);

function forecast(unit: 'F' | 'C', source = 'open-meteo'): WeatherDoc {
  const f = unit === 'F';
  return {
    city_id: 4140963,
    source,
    attribution: 'Weather data by Open-Meteo.com (CC BY 4.0)',
    unit,
    units: f
      ? { temperature: '°F', wind_speed: 'mph', precipitation: 'in' }
      : { temperature: '°C', wind_speed: 'km/h', precipitation: 'mm' },
    fetched_at: NOW,
    timezone: 'America/New_York',
    utc_offset_seconds: -18000,
    current: {
      time: NOW,
      temperature: f ? 48.9 : 9.4,
      apparent_temperature: f ? 44.2 : 6.8,
      humidity: 62,
      is_day: true,
      precipitation: 0,
      weather_code: 3,
      wind_speed: f ? 8.5 : 13.7,
      wind_direction: 284,
    },
    hourly: Array.from({ length: 48 }, (_, i) => ({
      time: NOW - 15 * 60_000 + i * HOUR,
      temperature: f ? 46 : 8,
      weather_code: i === 5 ? 0 : 61,
      is_day: i < 3,
      precipitation_probability: 40,
      wind_speed: 10,
    })),
    daily: Array.from({ length: 7 }, (_, i) => ({
      date: `2026-11-${25 + i}`,
      weather_code: i === 1 ? 71 : 2,
      temperature_max: f ? 50 : 10,
      temperature_min: f ? 35 : 2,
      precipitation_probability: 80,
      precipitation_sum: 0.2,
      wind_speed_max: 20,
      sunrise: Date.UTC(2026, 10, 25 + i, 12, 2),
      sunset: Date.UTC(2026, 10, 25 + i, 21, 48),
    })),
  };
}

const asUnit = (req: { query: Record<string, string> }) =>
  envelope(forecast(req.query.unit === 'C' ? 'C' : 'F'));

describe('issue 20 weather on /weather', () => {
  it('shows now, 48 hours and 7 days in words and °F by default', async () => {
    const { calls } = renderApp('/weather', { routes: { 'GET /api/weather': asUnit } });
    expect(await screen.findByText('49°F', undefined, SLOW)).toBeInTheDocument();
    expect(calls('/api/weather')[0].query).toEqual({ city_id: '4140963', unit: 'F' });
    // The icon has the conditions' words as its name.
    expect(screen.getAllByRole('img', { name: 'Overcast' }).length).toBeGreaterThan(0);
    expect(screen.getByText('Sunrise 7:02 AM')).toBeInTheDocument();
    expect(screen.getByText('Sunset 4:48 PM')).toBeInTheDocument();
    const hours = screen.getByRole('region', { name: 'Next 48 hours' });
    expect(within(hours).getAllByRole('listitem')).toHaveLength(48);
    // Night hours say so, day and night icons differ.
    expect(
      within(hours).getAllByRole('img', { name: 'Light rain (night)' }).length,
    ).toBeGreaterThan(0);
    const days = screen.getByRole('region', { name: 'Next 7 days' });
    expect(within(days).getAllByRole('listitem')).toHaveLength(7);
    expect(within(days).getByText('Thursday')).toBeInTheDocument();
    expect(within(days).getAllByText('Light snow').length).toBe(1);
    expect(screen.getByText(/Open-Meteo\.com \(CC BY 4\.0\)/)).toBeInTheDocument();
  });

  it('asks again in °C when the reader picks Celsius, and remembers it in the tu cookie', async () => {
    const { jar, calls } = renderApp('/weather', { routes: { 'GET /api/weather': asUnit } });
    await screen.findByText('49°F', undefined, SLOW);
    await userEvent.click(screen.getByRole('radio', { name: 'Celsius (°C)' }));
    expect(await screen.findByText('9°C', undefined, SLOW)).toBeInTheDocument();
    expect(calls('/api/weather').at(-1)?.query.unit).toBe('C');
    expect(jar.get('tu')).toBe('C');
    expect(screen.getAllByText(/km\/h/).length).toBeGreaterThan(0);
  });

  it('says weather is unavailable when the server answers 503, and can ask again', async () => {
    let down = true;
    renderApp('/weather', {
      routes: {
        'GET /api/weather': (req) =>
          down
            ? {
                status: 503,
                body: { code: 503, data: null, message: 'Weather is unavailable right now' },
              }
            : asUnit(req),
      },
    });
    const alert = await screen.findByRole('alert', {}, SLOW);
    expect(alert).toHaveTextContent('Weather is unavailable right now');
    expect(alert).toHaveTextContent('Try again in a minute');
    down = false;
    await userEvent.click(within(alert).getByRole('button', { name: 'Try again' }));
    expect(await screen.findByText('49°F', undefined, SLOW)).toBeInTheDocument();
  });

  it('shows a loading state while the forecast is on its way', async () => {
    renderApp('/weather', { routes: { 'GET /api/weather': () => new Promise(() => {}) } });
    expect(await screen.findByRole('status')).toHaveTextContent('Loading the forecast…');
  });

  it('labels demo weather as made up', async () => {
    renderApp('/weather', {
      routes: { 'GET /api/weather': () => envelope(forecast('F', 'demo')) },
    });
    expect(
      (await screen.findAllByText('Demo weather: made up by this server, not a real forecast'))
        .length,
    ).toBeGreaterThan(0);
  });

  it('reads in Spanish', async () => {
    renderApp('/es/weather', { routes: { 'GET /api/weather': asUnit } });
    expect(await screen.findByText('Próximas 48 horas')).toBeInTheDocument();
    expect(screen.getAllByRole('img', { name: 'Cubierto' }).length).toBeGreaterThan(0);
  });
});

describe('issue 20 weather widget on home', () => {
  it('shows the current conditions after the first paint, linking to /weather', async () => {
    const { calls } = renderApp('/', {
      routes: {
        'GET /api/weather': asUnit,
        'GET /api/news/feed': () => envelope({ list: [], next_page_no: '', context: {} }),
      },
    });
    const widget = await screen.findByRole('region', { name: 'Weather in Washington, DC' }, SLOW);
    expect(within(widget).getByText('49°F')).toBeInTheDocument();
    expect(within(widget).getByRole('img', { name: 'Overcast' })).toBeInTheDocument();
    expect(within(widget).getByRole('link', { name: 'Full forecast' })).toHaveAttribute(
      'href',
      '/weather',
    );
    // The widget asks for the current conditions alone, not 48 hours and 7 days (D425).
    expect(calls('/api/weather')[0].query).toEqual({ city_id: '4140963', unit: 'F', part: 'now' });
  });

  it('starts a reader in Canada with °C', async () => {
    const ottawa = {
      ...guestUser,
      country: 'CA',
      admin_code: 'ON',
      city: 'Ottawa',
      city_show: 'Ottawa, ON',
      city_id: 6094817,
    };
    const { calls } = renderApp('/', {
      routes: {
        'POST /api/user/init': () => envelope({ user: ottawa, token: 'tok-guest' }),
        'POST /api/user/info': () => envelope(ottawa),
        'GET /api/weather': asUnit,
        'GET /api/news/feed': () => envelope({ list: [], next_page_no: '', context: {} }),
      },
    });
    await waitFor(() => expect(calls('/api/weather')).toHaveLength(1), SLOW);
    expect(calls('/api/weather')[0].query.unit).toBe('C');
  });
});

describe('WMO codes', () => {
  it('every code Open-Meteo uses has words in the catalogue and an icon', () => {
    for (const code of WMO_CODES) {
      expect((en as Record<string, string>)[codeKey(code)], String(code)).toBeTruthy();
      expect(codeIcon(code, true)).not.toBe('');
    }
    expect(codeKey(42)).toBe('Weather_Code_unknown');
    expect(codeIcon(0, true)).not.toBe(codeIcon(0, false));
  });
});
