import { render, screen } from '@testing-library/react';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { loadLocale } from '../i18n';
import { ErrorBoundary } from './ErrorBoundary';

beforeAll(async () => {
  await loadLocale('en');
});

function Broken(): never {
  throw new Error('render failed');
}

describe('§8.14 fatal or unhandled errors', () => {
  it('§8.14 a fatal render error shows the generic error screen with its stack', () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    render(
      <ErrorBoundary>
        <Broken />
      </ErrorBoundary>,
    );
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('render failed');
    expect(screen.getByText('500')).toBeInTheDocument();
    expect(screen.getByText('Technical details')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Back to home' })).toHaveAttribute('href', '/');
  });
});
