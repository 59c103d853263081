import { Component, type ReactNode } from 'react';
import { ErrorScreen } from './ErrorScreen';

interface State {
  error: Error | null;
}

/** SPEC §8.14: a fatal or unhandled error shows the generic error screen. */
export class ErrorBoundary extends Component<{ children: ReactNode }, State> {
  state: State = { error: null };

  static getDerivedStateFromError(error: unknown): State {
    return { error: error instanceof Error ? error : new Error(String(error)) };
  }

  componentDidCatch(error: unknown) {
    console.error('fatal error', error);
  }

  render() {
    const { error } = this.state;
    if (!error) return this.props.children;
    return (
      <main id="main" className="layout-main" tabIndex={-1}>
        <ErrorScreen status={500} message={error.message} stack={error.stack} />
      </main>
    );
  }
}
