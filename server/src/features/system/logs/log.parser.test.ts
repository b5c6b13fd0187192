import { describe, expect, it } from 'vitest';
import { decodeIp, parseSocketTable } from '../../../host/sockets.ts';
import {
  parseCpuTimes,
  parseCurrEstab,
  parseMeminfo,
  parseNetDev,
  cpuPercent,
} from '../../../host/proc-stats.ts';
import { parseStat } from '../../../host/process-table.ts';
import { parseJournalEntry, parseLogLine } from './log.parser.ts';
import { parseQueueLine } from '../live/mail-queue.service.ts';

const now = new Date('2026-11-22T12:00:00Z');

describe('log lines', () => {
  it('reads syslog, RFC 3339, Apache, BIND and pino lines', () => {
    expect(
      parseLogLine(
        'Nov 22 10:00:01 mx postfix/smtp[123]: warning: connect to x: Connection timed out',
        'f:0',
        'mail',
        now,
      ),
    ).toMatchObject({
      timestamp: '2026-11-22T10:00:01.000Z',
      level: 'warning',
      service: 'postfix',
      pid: 123,
    });
    // A December line read in November is last year's.
    expect(parseLogLine('Dec 31 23:59:59 mx dovecot: imap-login: Login', 'f:0', 'mail', now)?.timestamp).toBe(
      '2025-12-31T23:59:59.000Z',
    );
    expect(
      parseLogLine(
        '2026-11-22T10:00:01.5+00:00 mx named[9]: zone example.com/IN: loaded serial 3',
        'x',
        'dns',
        now,
      ),
    ).toMatchObject({
      service: 'bind',
      level: 'info',
      pid: 9,
    });
    expect(
      parseLogLine(
        '[Sun Nov 22 10:00:01.123456 2026] [core:error] [pid 77:tid 1] AH00037: Symbolic link not allowed',
        'x',
        'web',
        now,
      ),
    ).toMatchObject({
      service: 'apache',
      level: 'error',
      pid: 77,
      timestamp: '2026-11-22T10:00:01.000Z',
    });
    expect(
      parseLogLine(
        '22-Nov-2026 10:00:01.000 general: warning: zone x.test: refresh: failure',
        'x',
        'dns',
        now,
      ),
    ).toMatchObject({ level: 'warning', service: 'bind' });
    expect(
      parseLogLine('{"level":50,"time":1795390000000,"pid":4,"msg":"boom"}', 'x', 'mailroom', now),
    ).toMatchObject({ level: 'error', service: 'mailroom', message: 'boom', pid: 4 });
    expect(parseLogLine('   ', 'x', 'mail', now)).toBeNull();
  });

  it('reads journald entries', () => {
    const e = parseJournalEntry(
      {
        PRIORITY: '3',
        __REALTIME_TIMESTAMP: '1795390000000000',
        MESSAGE: 'failed',
        SYSLOG_IDENTIFIER: 'postfix/smtpd',
        _PID: '12',
        __CURSOR: 's=1',
      },
      'mail',
    );
    expect(e).toMatchObject({ level: 'error', service: 'postfix', pid: 12, id: 's=1' });
  });
});

describe('kernel tables', () => {
  it('decodes /proc/net addresses', () => {
    expect(decodeIp('0100007F')).toBe('127.0.0.1');
    expect(decodeIp('00000000000000000000000001000000')).toBe('::1');
    expect(decodeIp('0000000000000000FFFF00000100007F')).toBe('::ffff:127.0.0.1');
    const rows = parseSocketTable(
      '  sl  local_address rem_address   st\n   0: 0100007F:0019 00000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 1592 1\n',
      'tcp',
    );
    expect(rows).toEqual([
      {
        protocol: 'tcp',
        localIp: '127.0.0.1',
        localPort: 25,
        remoteIp: '0.0.0.0',
        remotePort: 0,
        state: 'LISTEN',
        inode: 1592,
      },
    ]);
  });

  it('reads /proc figures', () => {
    const a = parseCpuTimes('cpu  100 0 100 800 0 0 0 0 0 0\ncpu0 1\n');
    const b = parseCpuTimes('cpu  150 0 150 900 0 0 0 0 0 0\n');
    expect(cpuPercent(a, b)).toBe(50);
    expect(parseMeminfo('MemTotal:       1000 kB\nMemFree: 10 kB\nMemAvailable:    250 kB\n')).toEqual({
      total: 1024000,
      available: 256000,
    });
    expect(parseNetDev('h\nh\n    lo: 5 0 0 0 0 0 0 0 5 0\n  eth0: 100 1 0 0 0 0 0 0 40 1\n')).toEqual({
      rx: 100,
      tx: 40,
    });
    expect(parseCurrEstab('Tcp: RtoAlgorithm RtoMin CurrEstab InSegs\nTcp: 1 200 7 9\n')).toBe(7);
    expect(
      parseStat('42 (my (odd) name) S 1 42 42 0 -1 0 0 0 0 0 30 20 0 0 20 0 3 0 500 1000 25'),
    ).toMatchObject({
      name: 'my (odd) name',
      state: 'S',
      ppid: 1,
      ticks: 50,
      threads: 3,
      start: 500,
      rssPages: 25,
    });
  });

  it('reads postqueue -j lines', () => {
    expect(
      parseQueueLine(
        '{"queue_name":"deferred","queue_id":"ABC123","arrival_time":1,"message_size":9,"sender":"a@b","recipients":[{"address":"c@d","delay_reason":"timeout"}]}',
      ),
    ).toEqual({
      id: 'ABC123',
      queue: 'deferred',
      arrivalTime: '1970-01-01T00:00:01.000Z',
      size: 9,
      sender: 'a@b',
      recipients: [{ address: 'c@d', reason: 'timeout' }],
    });
    expect(parseQueueLine('not json')).toBeNull();
  });
});
