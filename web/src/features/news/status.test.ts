import { describe, expect, it } from 'vitest';
import { dataFetchStatus } from './components/StatusViews';

describe('§4 data fetch status', () => {
  it('§4 idle, pending, success, error', () => {
    expect(dataFetchStatus({ status: 'pending', fetchStatus: 'idle' })).toBe('idle');
    expect(dataFetchStatus({ status: 'pending', fetchStatus: 'fetching' })).toBe('pending');
    expect(dataFetchStatus({ status: 'success', fetchStatus: 'fetching' })).toBe('success');
    expect(dataFetchStatus({ status: 'error', fetchStatus: 'idle' })).toBe('error');
    // Retrying after an error is pending again.
    expect(dataFetchStatus({ status: 'error', fetchStatus: 'fetching' })).toBe('pending');
  });
});
