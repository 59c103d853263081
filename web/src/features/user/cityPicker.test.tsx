import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { envelope } from '../../test/fakeServer';
import { installIntersectionObserver } from '../../test/intersection';
import { montreal, portland, washington } from '../../test/newsFixtures';
import { renderApp } from '../../test/renderApp';
import { normalizeGeoCity, productCodeFor, toCityInfo } from './geo';

beforeEach(() => {
  installIntersectionObserver();
});
afterEach(() => vi.unstubAllGlobals());

const geoRoutes = {
  'GET /api/geo/cities/default': () => envelope({ list: [washington, portland] }),
  'GET /api/geo/cities/search': () => envelope({ list: [portland], next_page_token: null }),
  'GET /api/geo/cities/nearest': () => envelope(montreal),
};

async function openPicker() {
  const button = await screen.findByRole('button', { name: /Washington, DC \(Change city\)/ });
  await userEvent.click(button);
  return screen.findByRole('dialog', { name: 'Choose your city' });
}

describe('city and country picker', () => {
  it('§9.5 offers the static list for the country and language', async () => {
    const { calls } = renderApp('/latest', { routes: geoRoutes });
    const dialog = await openPicker();
    expect(await within(dialog).findByRole('button', { name: /Portland, ME/ })).toBeInTheDocument();
    expect(within(dialog).getByText('Popular cities in United States')).toBeInTheDocument();
    expect(calls('/api/geo/cities/default')[0].query).toEqual({ country: 'US', lang: 'en' });
  });

  it('§4.4 searching as you type (debounced) and picking sets the city: "City, AdminCode"', async () => {
    const user = userEvent.setup();
    const { server, calls } = renderApp('/latest', { routes: geoRoutes });
    const dialog = await openPicker();
    await user.type(within(dialog).getByLabelText('Search for a city'), 'Portl');
    expect(await within(dialog).findByText('Cities found: 1')).toBeInTheDocument();
    // One request for the whole word typed, not one per key.
    expect(calls('/api/geo/cities/search')).toHaveLength(1);
    expect(calls('/api/geo/cities/search')[0].query).toEqual({
      q: 'Portl',
      country: 'US',
      lang: 'en',
    });
    await user.click(within(dialog).getByRole('button', { name: /Portland, ME/ }));
    await waitFor(() =>
      expect(server.requests.find((r) => r.path === '/api/user/location/update')?.body).toEqual({
        lat: 43.66,
        lon: -70.25,
        country: 'US',
        city: 'Portland',
        city_id: 4975802,
        lang: 'en',
        admin_code: 'ME',
        postal_code: '04101',
      }),
    );
    expect(
      await screen.findByRole('button', { name: /Portland, ME \(Change city\)/ }),
    ).toBeInTheDocument();
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(await screen.findByText('News now follows Portland, ME.')).toBeInTheDocument();
  });

  it('"Use my location" takes the nearest city; another country moves the language/country code too', async () => {
    const getCurrentPosition = vi.fn((ok: PositionCallback) =>
      ok({ coords: { latitude: 45.5, longitude: -73.6 } } as GeolocationPosition),
    );
    vi.stubGlobal('navigator', { ...navigator, geolocation: { getCurrentPosition } });
    const { server, calls, location, jar } = renderApp('/latest', { routes: geoRoutes });
    const dialog = await openPicker();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Use my location' }));
    await waitFor(() =>
      expect(calls('/api/geo/cities/nearest')[0]?.query).toEqual({
        lat: '45.5',
        lon: '-73.6',
        lang: 'en',
      }),
    );
    await waitFor(() =>
      expect(
        server.requests.find((r) => r.path === '/api/user/location/update')?.body,
      ).toMatchObject({ country: 'CA', city: 'Montréal', city_id: 6077243, lang: 'en' }),
    );
    await waitFor(() => expect(location()).toBe('/latest?c=en_CA'));
    expect(jar.get('lw_locale')).toBe('en_CA');
    expect(await screen.findByRole('button', { name: /Montréal, QC/ })).toBeInTheDocument();
  });

  it('a refused location says so and keeps the picker open', async () => {
    const getCurrentPosition = vi.fn((_ok: PositionCallback, fail?: PositionErrorCallback | null) =>
      fail?.({ code: 1, message: 'denied' } as GeolocationPositionError),
    );
    vi.stubGlobal('navigator', { ...navigator, geolocation: { getCurrentPosition } });
    renderApp('/latest', { routes: geoRoutes });
    const dialog = await openPicker();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Use my location' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(
      'Location access was refused.',
    );
  });

  it('§4.3 choosing another country runs the country change (its default city)', async () => {
    const { server, location } = renderApp('/es/latest?c=es_US', { routes: geoRoutes });
    const button = await screen.findByRole('button', {
      name: /Washington, DC \(Cambiar de ciudad\)/,
    });
    await userEvent.click(button);
    const dialog = await screen.findByRole('dialog', { name: 'Elige tu ciudad' });
    await userEvent.click(within(dialog).getByRole('radio', { name: 'Canadá' }));
    // Spanish is not offered in Canada: en_CA.
    await waitFor(() => expect(location()).toBe('/latest?c=en_CA'));
    await waitFor(() =>
      expect(
        server.requests.filter((r) => r.path === '/api/user/location/update').at(-1)?.body,
      ).toMatchObject({ country: 'CA', city: 'Ottawa', lang: 'en' }),
    );
  });
});

describe('city helpers', () => {
  it('D103 the language/country pair for a move to another country', () => {
    expect(productCodeFor('fr', 'CA')).toBe('fr_CA');
    expect(productCodeFor('es', 'US')).toBe('es_US');
    expect(productCodeFor('es', 'CA')).toBe('en_CA');
    expect(productCodeFor('fr', 'US')).toBe('en_US');
  });

  it('§3 name_ascii falls back to name; the city info for set city', () => {
    const city = normalizeGeoCity({ ...portland, name_ascii: '', city_show: '' });
    expect(city.name_ascii).toBe('Portland');
    expect(city.city_show).toBe('Portland, ME');
    expect(toCityInfo(city, 'es')).toEqual({
      id: 4975802,
      name: 'Portland',
      iso: 'US',
      lang: 'es',
      adminCode: 'ME',
      postalCode: '04101',
      lat: 43.66,
      lon: -70.25,
    });
  });
});
