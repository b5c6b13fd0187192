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

  it('reads the tls field before the figures: HTTPS per minute, protocol and cipher; plain HTTP and garbage are not HTTPS', () => {
    const { sums, tls, skipped } = sumLines([
      // First request of a TLS 1.2 connection, then two keep-alive requests on it.
      'a.example.com 127.0.0.1 1700000000 200 512 1500',
      'tls:TLSv1.2/ECDHE-RSA-AES256-GCM-SHA384/0/Initial a.example.com 127.0.0.1 1700000000 200 5 10',
      'tls:TLSv1.2/ECDHE-RSA-AES256-GCM-SHA384/1/Initial a.example.com 127.0.0.1 1700000001 200 5 10',
      'tls:TLSv1.2/ECDHE-RSA-AES256-GCM-SHA384/2/Initial a.example.com 127.0.0.1 1700000002 200 5 10',
      // HTTP/2: %k is 1 for every stream; stream 1 is the handshake's request.
      'tls:TLSv1.2/ECDHE-RSA-AES256-GCM-SHA384/1/Initial/1 a.example.com 127.0.0.1 1700000002 200 5 10',
      'tls:TLSv1.2/ECDHE-RSA-AES256-GCM-SHA384/1/Initial/3 a.example.com 127.0.0.1 1700000002 200 5 10',
      'tls:TLSv1.2/ECDHE-RSA-AES256-GCM-SHA384/0/Initial/- a.example.com 127.0.0.1 1700000002 200 5 10',
      // A resumed TLS 1.3 handshake, after the administrator's format (combined).
      '127.0.0.1 - - [14/Nov/2023:22:13:20 +0000] "GET / HTTP/1.1" 200 5 "-" "curl/8 (x y)" tls:TLSv1.3/TLS_AES_256_GCM_SHA384/0/Resumed a.example.com 127.0.0.1 1700000003 200 5 10',
      // Another minute.
      'tls:TLSv1.3/TLS_AES_256_GCM_SHA384/0/Initial a.example.com 127.0.0.1 1700000060 200 5 10',
      // Plain HTTP with metrics on.
      'tls:-/-/0/- a.example.com 127.0.0.1 1700000004 200 5 10',
      'tls:-/-/0/-/- a.example.com 127.0.0.1 1700000004 200 5 10',
      // Not a tls field, or one that cannot be read: the figures still count, no HTTPS.
      'tlsx:TLSv1.2/X/0/Initial a.example.com 127.0.0.1 1700000005 200 5 10',
      'tls:TLSv1.2/X/0 a.example.com 127.0.0.1 1700000005 200 5 10',
      'tls:TLSv1.2/X/0/Initial/1/9 a.example.com 127.0.0.1 1700000005 200 5 10',
      'tls:TLSv1.2/X/zero/Initial a.example.com 127.0.0.1 1700000005 200 5 10',
      'tls:TLSv1.2/ECDHE/0/Initial garbage',
    ]);
    expect(skipped).toBe(1);
    expect(sums.reduce((n, s) => n + s.requests, 0)).toBe(15);
    expect(tls).toEqual([
      {
        minute: 28333333,
        protocol: 'TLSv1.2',
        cipher: 'ECDHE-RSA-AES256-GCM-SHA384',
        requests: 6,
        handshakes: 3,
        resumed: 0,
      },
      {
        minute: 28333333,
        protocol: 'TLSv1.3',
        cipher: 'TLS_AES_256_GCM_SHA384',
        requests: 1,
        handshakes: 1,
        resumed: 1,
      },
      {
        minute: 28333334,
        protocol: 'TLSv1.3',
        cipher: 'TLS_AES_256_GCM_SHA384',
        requests: 1,
        handshakes: 1,
        resumed: 0,
      },
    ]);
  });
});
