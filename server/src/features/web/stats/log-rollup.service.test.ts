import { describe, expect, it } from 'vitest';
import { sumLines } from './log-rollup.service.ts';

describe('access log roll-up', () => {
  it('sums requests, 5xx errors, bytes and µs per host and minute, and skips lines it cannot read', () => {
    const { sums, skipped } = sumLines([
      'a.example.com 127.0.0.1 1700000000 200 512 1500',
      'a.example.com 127.0.0.2 1700000010 503 - 500',
      'a.example.com 127.0.0.1 1700000070 200 10 100',
      'b.example.com 127.0.0.1 1700000001 404 20 300',
      // With Enable Logging: the administrator's format (combined) first, the figures fields last.
      '127.0.0.1 - - [14/Nov/2023:22:13:20 +0000] "GET / HTTP/1.1" 200 512 "-" "curl/8 (x y)" b.example.com 127.0.0.1 1700000002 500 7 40',
      'garbage line',
    ]);
    expect(skipped).toBe(1);
    expect(sums).toEqual([
      { vhost: 'a.example.com', minute: 28333333, requests: 2, errors: 1, bytes: 512, durationUs: 2000 },
      { vhost: 'a.example.com', minute: 28333334, requests: 1, errors: 0, bytes: 10, durationUs: 100 },
      { vhost: 'b.example.com', minute: 28333333, requests: 2, errors: 1, bytes: 27, durationUs: 340 },
    ]);
  });
});
