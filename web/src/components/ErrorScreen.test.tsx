import { render, screen } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { loadLocale } from '../i18n';
import { ErrorScreen } from './ErrorScreen';

beforeEach(async () => {
  await loadLocale('en');
});

describe('§2.25 generic error screen', () => {
  it('§2.25 shows the status code, the data code in parentheses and the message', () => {
    render(<ErrorScreen status={400} code={1001} message="Field `lat`: invalid" />);
    expect(screen.getByText('400')).toBeInTheDocument();
    expect(screen.getByText('(1001)')).toBeInTheDocument();
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('Field `lat`: invalid');
  });

  it('§2.25 without a message, the status message', () => {
    render(<ErrorScreen status={404} />);
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('Not Found');
  });

  it("§2.25 without message or status message, 'Unknown error'", () => {
    render(<ErrorScreen status={418} />);
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('Unknown error');
    expect(screen.queryByText(/\(/)).not.toBeInTheDocument();
  });

  it('§2.25 shows the URL and the stack when present', () => {
    render(<ErrorScreen status={500} message="boom" url="/api/x" stack={'Error: boom\n  at f'} />);
    expect(screen.getByText('/api/x')).toBeInTheDocument();
    expect(screen.getByText(/at f/)).toBeInTheDocument();
  });

  it('§2.25 no URL or stack section when absent', () => {
    render(<ErrorScreen status={500} message="boom" />);
    expect(screen.queryByText('Address:', { exact: false })).not.toBeInTheDocument();
    expect(screen.queryByText('Technical details')).not.toBeInTheDocument();
  });

  it('§2.25 the back button (Web_Back) goes to /', () => {
    render(<ErrorScreen status={404} />);
    const back = screen.getByRole('link', { name: 'Back to home' });
    expect(back).toHaveAttribute('href', '/');
  });

  it('§2.25 the back button label is translated', async () => {
    await loadLocale('fr');
    render(<ErrorScreen status={404} />);
    expect(screen.getByRole('link', { name: 'Retour à l’accueil' })).toHaveAttribute('href', '/');
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('Not Found');
    await loadLocale('en');
  });
});
