import { describe, expect, it } from 'vitest';
import { ApiError } from '../lib/api';
import { describeError } from './RouteErrorScreen';

describe('§8.14 fatal or unhandled errors', () => {
  it('§2.25 route errors become status, data code, message, URL and stack', () => {
    expect(
      describeError(
        new ApiError({ status: 403, code: 40301, message: 'Forbidden', url: '/api/x' }),
      ),
    ).toEqual({ status: 403, code: 40301, message: 'Forbidden', url: '/api/x' });
    const error = new Error('boom');
    expect(describeError(error)).toEqual({ status: 500, message: 'boom', stack: error.stack });
    expect(describeError('strange')).toEqual({ status: 500 });
  });
});
