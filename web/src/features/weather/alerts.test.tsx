import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { envelope, guestUser } from '../../test/fakeServer';
import { installIntersectionObserver } from '../../test/intersection';
import { renderApp } from '../../test/renderApp';
import type { AlertItem, AlertsDoc } from './alerts';

beforeEach(() => {
  installIntersectionObserver();
  sessionStorage.clear();
});

/** The app's start-up runs first; on a busy machine that takes more than the default second. */
const SLOW = { timeout: 5000 };
const HOUR = 3_600_000;
const NOW = Date.UTC(2026, 10, 25, 20, 0);

function alert(over: Partial<AlertItem>): AlertItem {
  return {
    id: 'urn:oid:2.49.0.1.840.0.1',
    severity: 'Moderate',
    urgency: 'Expected',
    certainty: 'Likely',
    event: 'Wind Advisory',
    headline: 'Wind Advisory issued November 25 by NWS Sterling VA',
    description: '* WHAT...West winds 20 to 30 mph.\n\n* WHERE...District of Columbia.',
    instruction: 'Secure outdoor objects.',
    area: 'District of Columbia',
    sender: 'NWS Sterling VA',
    url: 'https://api.weather.gov/alerts/urn:oid:2.49.0.1.840.0.1',
    onset: NOW + 3 * HOUR,
    ends: NOW + 13 * HOUR,
    language: 'en',
    ...over,
  };
}

function alerts(list: AlertItem[], source = 'nws'): AlertsDoc {
  return {
    city_id: 4140963,
    source,
    attribution: 'Alerts from the U.S. National Weather Service (api.weather.gov)',
    fetched_at: NOW,
    timezone: 'America/New_York',
    alerts: list,
  };
}

const storm = alert({
  id: 'urn:oid:2.49.0.1.840.0.2',
  severity: 'Severe',
  event: 'Winter Storm Warning',
  headline: 'Winter Storm Warning issued November 25 by NWS Sterling VA',
  description: 'Heavy snow expected.\nTotal snow accumulations of 6 to 10 inches.',
  instruction: 'If you must travel, keep a flashlight in your vehicle.',
});

const down = () => ({
  status: 503,
  body: { code: 503, data: null, message: 'Weather alerts are unavailable right now' },
});
const feed = () => envelope({ list: [], next_page_no: '', context: {} });

describe('issue 20 ★ official alerts on /weather (D288)', () => {
  it('d285 lists the alerts above the forecast, severity in words, issuer, time range, details and link', async () => {
    const { calls } = renderApp('/weather', {
      routes: { 'GET /api/weather/alerts': () => envelope(alerts([storm, alert({})])) },
    });
    const region = await screen.findByRole('region', { name: 'Official alerts' }, SLOW);
    // The region shows its loading state before the request goes out, so the call is read
    // only once the alerts it brought are on screen.
    const items = await within(region).findAllByRole('article', undefined, SLOW);
    expect(calls('/api/weather/alerts')[0].query).toEqual({ city_id: '4140963', lang: 'en' });
    expect(items).toHaveLength(2);
    // The server's order (most severe first) is kept; the severity is written, not only coloured.
    expect(items[0]).toHaveAccessibleName(storm.headline);
    expect(within(items[0]).getByText('Severe')).toBeInTheDocument();
    expect(within(items[1]).getByText('Moderate')).toBeInTheDocument();
    expect(within(items[0]).getByText(/Issued by NWS Sterling VA/)).toBeInTheDocument();
    expect(
      within(items[0]).getByText('From Wed, Nov 25, 6:00 PM until Thu, Nov 26, 4:00 AM'),
    ).toBeInTheDocument();
    // The issuer's words, line breaks kept, behind a disclosure.
    await userEvent.click(within(items[0]).getByText('Details and what to do'));
    expect(
      within(items[0]).getByText(/Heavy snow expected\.\s+Total snow accumulations/),
    ).toBeVisible();
    expect(within(items[0]).getByRole('heading', { name: 'What to do' })).toBeVisible();
    expect(
      within(items[0]).getByRole('link', { name: 'Read it on the issuer’s site' }),
    ).toHaveAttribute('href', storm.url);
    expect(
      within(region).getByText('Alerts from the U.S. National Weather Service'),
    ).toBeInTheDocument();
  });

  it('says when there are no alerts for the city', async () => {
    renderApp('/weather', { routes: { 'GET /api/weather/alerts': () => envelope(alerts([])) } });
    expect(
      await screen.findByText(
        'No official weather alerts for Washington, DC right now',
        undefined,
        SLOW,
      ),
    ).toBeInTheDocument();
  });

  it('d286 says alerts are unavailable without hiding the forecast, and can ask again', async () => {
    let failing = true;
    renderApp('/weather', {
      routes: {
        'GET /api/weather/alerts': () => (failing ? down() : envelope(alerts([storm]))),
      },
    });
    const region = await screen.findByRole('region', { name: 'Official alerts' }, SLOW);
    expect(
      await within(region).findByText(/Official alerts are unavailable right now/, undefined, SLOW),
    ).toBeInTheDocument();
    failing = false;
    await userEvent.click(within(region).getByRole('button', { name: 'Try again' }));
    expect(await within(region).findByText('Severe', undefined, SLOW)).toBeInTheDocument();
  });

  it('shows that it is checking while the alerts are on their way', async () => {
    renderApp('/weather', { routes: { 'GET /api/weather/alerts': () => new Promise(() => {}) } });
    expect(
      await screen.findByText('Checking for official alerts…', undefined, SLOW),
    ).toBeInTheDocument();
  });

  it('d287 labels demo alerts as made up', async () => {
    renderApp('/weather', {
      routes: { 'GET /api/weather/alerts': () => envelope(alerts([storm], 'demo')) },
    });
    expect(
      await screen.findByText(
        'Demo alerts: made up by this server, not real warnings',
        undefined,
        SLOW,
      ),
    ).toBeInTheDocument();
  });

  it('d284 a French reader in Canada asks in French; English words are marked as issued', async () => {
    const ottawa = {
      ...guestUser,
      country: 'CA',
      admin_code: 'ON',
      city: 'Ottawa',
      city_show: 'Ottawa, ON',
      city_id: 6094817,
      app_lang: 'fr',
    };
    const { calls } = renderApp('/fr/weather', {
      routes: {
        'POST /api/user/init': () => envelope({ user: ottawa, token: 'tok-guest' }),
        'POST /api/user/info': () => envelope(ottawa),
        'GET /api/weather/alerts': () =>
          envelope({
            ...alerts(
              [
                alert({
                  severity: 'Severe',
                  event: 'avertissement de neige',
                  headline: 'avertissement de neige',
                  sender: 'Environnement et Changement climatique Canada',
                  language: 'fr',
                }),
                alert({
                  id: 'b',
                  severity: 'Minor',
                  event: 'Frost Advisory',
                  headline: 'Frost Advisory',
                }),
              ],
              'eccc',
            ),
            timezone: 'America/Toronto',
          }),
      },
    });
    const region = await screen.findByRole('region', { name: 'Alertes officielles' }, SLOW);
    const [snow, frost] = await within(region).findAllByRole('article', undefined, SLOW);
    expect(calls('/api/weather/alerts')[0].query.lang).toBe('fr');
    expect(within(snow).getByText('Sévère')).toBeInTheDocument();
    expect(
      within(snow).getByText(/Émise par Environnement et Changement climatique Canada/),
    ).toBeInTheDocument();
    expect(within(snow).queryByText('En anglais, telle qu’émise')).toBeNull();
    expect(within(frost).getByText('En anglais, telle qu’émise')).toBeInTheDocument();
    expect(within(frost).getByRole('heading', { name: 'Frost Advisory' })).toHaveAttribute(
      'lang',
      'en',
    );
  });
});

describe('issue 20 ★ alert banner on home (D288)', () => {
  it('shows the most severe alert after the first paint, linking to the alerts on /weather', async () => {
    renderApp('/', {
      routes: {
        'GET /api/news/feed': feed,
        'GET /api/weather/alerts': () => envelope(alerts([storm, alert({})])),
      },
    });
    const banner = await screen.findByRole(
      'region',
      { name: 'Weather alert for Washington, DC' },
      SLOW,
    );
    expect(banner).toHaveTextContent('Severe: Winter Storm Warning');
    expect(within(banner).getByRole('link', { name: 'See all alerts (2)' })).toHaveAttribute(
      'href',
      '/weather#alerts',
    );
    await userEvent.click(within(banner).getByRole('button', { name: 'Hide' }));
    expect(screen.queryByRole('region', { name: 'Weather alert for Washington, DC' })).toBeNull();
  });

  it('shows nothing when there are no alerts, or while loading, or when the issuer is down', async () => {
    for (const answer of [() => envelope(alerts([])), down, () => new Promise<never>(() => {})]) {
      const { calls } = renderApp('/', {
        routes: { 'GET /api/news/feed': feed, 'GET /api/weather/alerts': answer },
      });
      await waitFor(() => expect(calls('/api/weather/alerts')).toHaveLength(1), SLOW);
      // The weather widget still gets its own call, whatever the alerts do.
      await waitFor(() => expect(calls('/api/weather')).toHaveLength(1), SLOW);
      expect(screen.queryByRole('region', { name: /Weather alert for/ })).toBeNull();
      cleanup();
    }
  });
});
