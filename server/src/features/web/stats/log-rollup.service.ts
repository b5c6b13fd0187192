import type { AppDeps } from '../../../app-deps.ts';
import { logEnd, readLogFrom } from '../../../host/apache-host.ts';
import { figuresLogPath } from '../settings/apache-conf.renderer.ts';
import { readWebSettings } from '../settings/web-settings.repository.ts';
import { APACHE_PATHS } from '../stack/apache.layout.ts';
import { addMinutes, dropMinutesBefore, type MinuteSum, readLogPosition } from './web-traffic.repository.ts';
import type { TlsMinuteSum } from './web-tls.repository.ts';

/**
 * `%v %a %{sec}t %>s %B %D` (STATS_LOG_FORMAT) at the end of a line (after the administrator's
 * format when logging is on): host, client, epoch seconds, status, bytes, µs.
 */
const LINE = /^(\S+) \S+ (\d+) (\d{3}) (\d+|-) (\d+)$/;

/** Where the last six space-separated fields of a line start (0 when it has no more). */
function figuresStart(l: string): number {
  let at = l.length;
  for (let n = 0; n < 6; n++) {
    at = l.lastIndexOf(' ', at - 1);
    if (at < 0) return 0;
  }
  return at + 1;
}

/**
 * SSL metrics (Enable SSL Metrics with HTTPS served): one field just before the figures,
 * `tls:%{SSL_PROTOCOL}x/%{SSL_CIPHER}x/%k/%{SSL_SESSION_RESUMED}x/%{H2_STREAM_ID}e` (plain HTTP:
 * `tls:-/-/0/-/-`). A request came with its connection's handshake when it is the first on it:
 * HTTP/1 keep-alive count 0, or HTTP/2 stream 1 (over HTTP/2, %k does not count the streams).
 */
export const TLS_FIELD_PREFIX = 'tls:';

/** Digits only, at least one (the keep-alive count). */
function digits(l: string, from: number, to: number): boolean {
  if (to <= from) return false;
  for (let i = from; i < to; i++) {
    const c = l.charCodeAt(i);
    if (c < 48 || c > 57) return false;
  }
  return true;
}

/**
 * The tls field before the figures starting at `start` (null: none, not readable, or plain HTTP):
 * `protocol/cipher` is the line from `at` to `suiteEnd` (the protocol ends at `protocolEnd`). Read with
 * indexOf and character tests only, no regular expression or split: the roll-up reads about a million
 * lines a second.
 */
export function tlsField(
  l: string,
  start: number,
): { at: number; protocolEnd: number; suiteEnd: number; handshake: boolean; resumed: boolean } | null {
  if (start < 2) return null;
  const end = start - 1;
  const from = l.lastIndexOf(' ', end - 1) + 1;
  if (!l.startsWith(TLS_FIELD_PREFIX, from)) return null;
  const p = from + TLS_FIELD_PREFIX.length;
  const s1 = l.indexOf('/', p);
  if (s1 < 0 || s1 >= end) return null;
  const s2 = l.indexOf('/', s1 + 1);
  if (s2 < 0 || s2 >= end) return null;
  const s3 = l.indexOf('/', s2 + 1);
  if (s3 < 0 || s3 >= end) return null;
  // The HTTP/2 stream is the fifth part (lines written before it have four).
  let s4 = l.indexOf('/', s3 + 1);
  if (s4 < 0 || s4 >= end) s4 = end;
  else {
    const more = l.indexOf('/', s4 + 1);
    if (more >= 0 && more < end) return null;
  }
  // Plain HTTP (or a field Apache could not fill): not an HTTPS request.
  if (s1 === p || (s1 === p + 1 && l.charCodeAt(p) === 45) || s2 === s1 + 1 || !digits(l, s2 + 1, s3))
    return null;
  const noStream = s4 === end || s4 + 1 === end || (s4 + 2 === end && l.charCodeAt(s4 + 1) === 45);
  const handshake = noStream
    ? s3 === s2 + 2 && l.charCodeAt(s2 + 1) === 48
    : s4 + 2 === end && l.charCodeAt(s4 + 1) === 49;
  const resumed = s4 === s3 + 8 && l.startsWith('Resumed', s3 + 1);
  return { at: p, protocolEnd: s1, suiteEnd: s2, handshake, resumed };
}

const KEEP_MINUTES = 7 * 24 * 60;

export interface RollupResult {
  lines: number;
  skipped: number;
}

/**
 * Sums complete log lines per host and minute, and HTTPS requests per minute, protocol and cipher
 * (lines with a tls field); Mailroom's own probe requests are not traffic.
 */
export function sumLines(lines: string[]): { sums: MinuteSum[]; tls: TlsMinuteSum[]; skipped: number } {
  const by = new Map<string, MinuteSum>();
  const byTls = new Map<string, TlsMinuteSum>();
  let lastTls = null as TlsMinuteSum | null;
  let lastSuite = '';
  let skipped = 0;
  for (const l of lines) {
    const start = figuresStart(l);
    const m = LINE.exec(start ? l.slice(start) : l);
    if (!m) {
      skipped++;
      continue;
    }
    const [, vhost, secs, status, bytes, us] = m as unknown as [
      string,
      string,
      string,
      string,
      string,
      string,
    ];
    const minute = Math.floor(Number(secs) / 60);
    const key = `${vhost} ${minute}`;
    let s = by.get(key);
    if (!s) by.set(key, (s = { vhost, minute, requests: 0, errors: 0, bytes: 0, durationUs: 0 }));
    s.requests++;
    if (status.startsWith('5')) s.errors++;
    s.bytes += bytes === '-' ? 0 : Number(bytes);
    s.durationUs += Number(us);
    const t = start ? tlsField(l, start) : null;
    if (t) {
      // Lines of one minute and suite mostly follow each other: no new string for those.
      let ts = lastTls ?? undefined;
      if (
        !ts ||
        ts.minute !== minute ||
        lastSuite.length !== t.suiteEnd - t.at ||
        !l.startsWith(lastSuite, t.at)
      ) {
        lastSuite = l.slice(t.at, t.suiteEnd);
        const tkey = `${minute} ${lastSuite}`;
        ts = byTls.get(tkey);
        if (!ts)
          byTls.set(
            tkey,
            (ts = {
              minute,
              protocol: l.slice(t.at, t.protocolEnd),
              cipher: l.slice(t.protocolEnd + 1, t.suiteEnd),
              requests: 0,
              handshakes: 0,
              resumed: 0,
            }),
          );
        lastTls = ts;
      }
      ts.requests++;
      if (t.handshake) {
        ts.handshakes++;
        if (t.resumed) ts.resumed++;
      }
    }
  }
  return { sums: [...by.values()], tls: [...byTls.values()], skipped };
}

/**
 * Reads the shared access log from where the last read stopped and adds its lines to the
 * per-minute figures, under one lock so several instances read each line once (the position moves
 * in the same transaction as the sums).
 */
export async function rollUpAccessLog(deps: AppDeps): Promise<RollupResult> {
  const run = async (): Promise<RollupResult> => {
    const db = deps.database.db;
    const pos = await readLogPosition(db);
    const logPath = figuresLogPath(await readWebSettings(db));
    const file = deps.host.path(logPath);
    // The position names its file (`<inode>@<path>`; a bare inode is the figures log's). When the
    // log moved (Enable Logging or the path changed), the lines already in the new file were
    // written before and are not read: the roll-up starts at its end.
    const at = pos.inode.includes('@') ? pos.inode.slice(pos.inode.indexOf('@') + 1) : APACHE_PATHS.statsLog;
    const inode = pos.inode.includes('@') ? pos.inode.slice(0, pos.inode.indexOf('@')) : pos.inode;
    const tag = (ino: string) => `${ino}@${logPath}`;
    const moved = pos.inode !== '' && at !== logPath;
    const from = moved ? await logEnd(file) : { inode, offset: pos.offset };
    if (!from) {
      // Moved to a log not written yet: every line it gets is new.
      await addMinutes(db, [], { inode: tag(''), offset: 0 }, pos);
      return { lines: 0, skipped: 0 };
    }
    const read = await readLogFrom(file, from);
    if (!read || (read.lines.length === 0 && tag(read.inode) === pos.inode && read.offset === pos.offset))
      return { lines: 0, skipped: 0 };
    const { sums, tls, skipped } = sumLines(read.lines);
    await addMinutes(db, sums, { inode: tag(read.inode), offset: read.offset }, pos, tls);
    if (sums.length) await dropMinutesBefore(db, Math.floor(Date.now() / 60_000) - KEEP_MINUTES);
    return { lines: read.lines.length, skipped };
  };
  return deps.locks ? deps.locks.withLock('web.access-log', run) : run();
}
