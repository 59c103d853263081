import { render, screen } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { loadLocale } from '../../../i18n';
import type { FeedContext } from '../../../lib/news';
import { ScopeNote } from './FeedSection';

beforeEach(async () => {
  await loadLocale('en');
});

/** The gazetteer's own name for Washington, as `context.city` carries it. */
const washington = {
  name: 'Washington D. C.',
  admin_code: 'DC',
  city_show: 'Washington D. C., DC',
} as FeedContext['city'];

describe('local context.scope note (docs/api-reading.md)', () => {
  it('says nothing when the city itself filled the page', () => {
    const { container } = render(
      <ScopeNote context={{ scope: 'city', city: washington }} city="Washington, DC" />,
    );
    expect(container).toBeEmptyDOMElement();
  });

  it('names the city as the screen does, not by the feed context’s gazetteer name', () => {
    render(
      <ScopeNote
        context={{ scope: 'country', city: washington, area_name: 'the United States' }}
        city="Washington, DC"
      />,
    );
    expect(screen.getByRole('note')).toHaveTextContent(
      'Showing news from across the United States: there are few stories from Washington, DC and its region right now.',
    );
  });

  it('falls back on the feed context’s city without a label', () => {
    render(<ScopeNote context={{ scope: 'nearby', city: washington }} city="" />);
    expect(screen.getByRole('note')).toHaveTextContent('near Washington D. C., DC:');
  });
});
