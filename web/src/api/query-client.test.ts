import { describe, expect, it } from 'vitest';
import { ApiError, CLIENT_ERROR_STATUS } from './client.ts';
import { queryClient, RETRY_DELAY_MS, shouldRetry } from './query-client.ts';

const err = (status: number) => new ApiError({ status, message: 'x' });

describe('read retries (spec §9: 3 × 1000 ms, not on 4xx)', () => {
  it('retries server and connection failures up to 3 times', () => {
    for (const e of [err(500), err(503), err(0), new Error('x')]) {
      expect([0, 1, 2].map((n) => shouldRetry(n, e))).toEqual([true, true, true]);
      expect(shouldRetry(3, e)).toBe(false);
    }
  });

  it('never retries client errors', () => {
    for (const s of [400, 401, 403, 404, 409, 422, 429, CLIENT_ERROR_STATUS])
      expect(shouldRetry(0, err(s))).toBe(false);
  });

  it('waits 1000 ms between tries and does not retry mutations', () => {
    expect(RETRY_DELAY_MS).toBe(1000);
    expect(queryClient.getDefaultOptions().queries?.retryDelay).toBe(1000);
    expect(queryClient.getDefaultOptions().mutations?.retry).toBe(false);
  });
});
