import type { LogEntry, LogLevel } from '@mailroom/contract/system-live';

const MONTHS: Record<string, number> = {
  Jan: 0,
  Feb: 1,
  Mar: 2,
  Apr: 3,
  May: 4,
  Jun: 5,
  Jul: 6,
  Aug: 7,
  Sep: 8,
  Oct: 9,
  Nov: 10,
  Dec: 11,
};

/** The level a plain log line means, from its own words. */
export function levelOfText(text: string): LogLevel {
  if (/\b(error|fatal|panic|crit(ical)?|alert|emerg|failed|failure)\b/i.test(text)) return 'error';
  if (/\b(warn(ing)?|reject|deferred|timeout)\b/i.test(text)) return 'warning';
  if (/\bdebug\b/i.test(text)) return 'debug';
  return 'info';
}

/** Service names as the console's filter shows them. */
export function serviceOf(program: string): string {
  const p = program.toLowerCase().split('/')[0]!;
  if (p.startsWith('postfix')) return 'postfix';
  if (p.startsWith('dovecot')) return 'dovecot';
  if (p === 'named' || p === 'bind') return 'bind';
  if (p.startsWith('rspamd')) return 'rspamd';
  if (p.startsWith('apache') || p === 'httpd') return 'apache';
  if (p.startsWith('postgres')) return 'postgresql';
  if (p === 'mailroom' || p === 'node') return 'mailroom';
  return p || 'system';
}

function syslogDate(mon: string, day: string, time: string, now: Date): string {
  const [h, m, s] = time.split(':').map(Number);
  const d = new Date(Date.UTC(now.getUTCFullYear(), MONTHS[mon] ?? 0, Number(day), h, m, Math.floor(s ?? 0)));
  // Syslog has no year: a date ahead of now is last year's.
  if (d.getTime() - now.getTime() > 86_400_000) d.setUTCFullYear(d.getUTCFullYear() - 1);
  return d.toISOString();
}

const SYSLOG = /^([A-Z][a-z]{2}) +(\d{1,2}) (\d{2}:\d{2}:\d{2}) (\S+) ([^:[\s]+)(?:\[(\d+)\])?: ?(.*)$/;
const RFC3339 =
  /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:Z|[+-]\d{2}:?\d{2})) (\S+) ([^:[\s]+)(?:\[(\d+)\])?: ?(.*)$/;
const APACHE =
  /^\[(?:\w{3} )?(\w{3}) (\d{1,2}) (\d{2}:\d{2}:\d{2})(?:\.\d+)? (\d{4})\] \[(?:([\w-]+):)?(\w+)\](?: \[pid (\d+)(?::tid \d+)?\])? (.*)$/;
const BIND =
  /^(\d{2})-(\w{3})-(\d{4}) (\d{2}:\d{2}:\d{2})(?:\.\d+)? (?:([\w-]+): )?(?:(critical|error|warning|notice|info|debug(?: \d+)?): )?(.*)$/;

const PINO_LEVELS: Record<number, LogLevel> = {
  10: 'debug',
  20: 'debug',
  30: 'info',
  40: 'warning',
  50: 'error',
  60: 'error',
};

/** One line of a log file, in any of the formats Mailroom's daemons write; null for a blank line. */
export function parseLogLine(line: string, id: string, source: string, now = new Date()): LogEntry | null {
  if (!line.trim()) return null;
  if (line.startsWith('{')) {
    try {
      const j = JSON.parse(line) as {
        level?: number;
        time?: number | string;
        msg?: string;
        pid?: number;
        name?: string;
      };
      if (typeof j.msg === 'string' || j.level !== undefined) {
        return {
          id,
          timestamp: new Date(j.time ?? now).toISOString(),
          level: PINO_LEVELS[Number(j.level)] ?? 'info',
          service: 'mailroom',
          message: j.msg ?? line,
          source,
          pid: typeof j.pid === 'number' ? j.pid : null,
        };
      }
    } catch {
      /* not JSON after all */
    }
  }
  let m = SYSLOG.exec(line);
  if (m) {
    return {
      id,
      timestamp: syslogDate(m[1]!, m[2]!, m[3]!, now),
      level: levelOfText(m[7]!),
      service: serviceOf(m[5]!),
      message: m[7]!,
      source,
      pid: m[6] ? Number(m[6]) : null,
    };
  }
  m = RFC3339.exec(line);
  if (m) {
    const t = new Date(m[1]!);
    return {
      id,
      timestamp: Number.isNaN(t.getTime()) ? now.toISOString() : t.toISOString(),
      level: levelOfText(m[5]!),
      service: serviceOf(m[3]!),
      message: m[5]!,
      source,
      pid: m[4] ? Number(m[4]) : null,
    };
  }
  m = APACHE.exec(line);
  if (m) {
    const [h, mi, s] = m[3]!.split(':').map(Number);
    const t = new Date(Date.UTC(Number(m[4]), MONTHS[m[1]!] ?? 0, Number(m[2]), h, mi, s));
    const sev = m[6]!.toLowerCase();
    const level: LogLevel = /emerg|alert|crit|error/.test(sev)
      ? 'error'
      : sev === 'warn'
        ? 'warning'
        : /debug|trace/.test(sev)
          ? 'debug'
          : 'info';
    return {
      id,
      timestamp: t.toISOString(),
      level,
      service: 'apache',
      message: m[8]!,
      source,
      pid: m[7] ? Number(m[7]) : null,
    };
  }
  m = BIND.exec(line);
  if (m) {
    const [h, mi, s] = m[4]!.split(':').map(Number);
    const t = new Date(Date.UTC(Number(m[3]), MONTHS[m[2]!] ?? 0, Number(m[1]), h, mi, s));
    const sev = (m[6] ?? '').split(' ')[0];
    const level: LogLevel =
      sev === 'critical' || sev === 'error'
        ? 'error'
        : sev === 'warning'
          ? 'warning'
          : sev === 'debug'
            ? 'debug'
            : sev
              ? 'info'
              : levelOfText(m[7]!);
    return { id, timestamp: t.toISOString(), level, service: 'bind', message: m[7]!, source, pid: null };
  }
  return {
    id,
    timestamp: now.toISOString(),
    level: levelOfText(line),
    service: 'system',
    message: line,
    source,
    pid: null,
  };
}

/** A journald entry (`journalctl -o json`). */
const str = (v: unknown): string | null =>
  typeof v === 'string' ? v : typeof v === 'number' ? String(v) : null;

export function parseJournalEntry(j: Record<string, unknown>, source: string): LogEntry {
  const prio = Number(j.PRIORITY ?? 6);
  const level: LogLevel = prio <= 3 ? 'error' : prio === 4 ? 'warning' : prio === 7 ? 'debug' : 'info';
  const us = Number(j.__REALTIME_TIMESTAMP ?? 0);
  const msg = Array.isArray(j.MESSAGE)
    ? Buffer.from(j.MESSAGE as number[]).toString('utf8')
    : (str(j.MESSAGE) ?? '');
  return {
    id: str(j.__CURSOR) ?? '',
    timestamp: new Date(us / 1000).toISOString(),
    level,
    service: serviceOf(str(j.SYSLOG_IDENTIFIER) ?? str(j._COMM) ?? 'system'),
    message: msg,
    source,
    pid: j._PID ? Number(j._PID) : null,
  };
}
