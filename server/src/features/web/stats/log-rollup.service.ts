import type { AppDeps } from '../../../app-deps.ts';
import { logEnd, readLogFrom } from '../../../host/apache-host.ts';
import { figuresLogPath } from '../settings/apache-conf.renderer.ts';
import { readWebSettings } from '../settings/web-settings.repository.ts';
import { APACHE_PATHS } from '../stack/apache-layout.ts';
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

/** The tls field before the figures starting at `start` (null: none, or not readable). */
export function tlsField(
  l: string,
  start: number,
): { protocol: string; cipher: string; handshake: boolean; resumed: boolean } | null {
  if (start < 2) return null;
  const from = l.lastIndexOf(' ', start - 2) + 1;
  if (!l.startsWith(TLS_FIELD_PREFIX, from)) return null;
  const parts = l.slice(from + TLS_FIELD_PREFIX.length, start - 1).split('/');
  if (parts.length !== 4 && parts.length !== 5) return null;
  const [protocol, cipher, keepalive, resumed, stream = '-'] = parts as [
    string,
    string,
    string,
    string,
    string?,
  ];
  // Plain HTTP (or a field Apache could not fill): not an HTTPS request.
  if (
    protocol === '-' ||
    protocol === '' ||
    cipher === '' ||
    keepalive === '' ||
    Number.isNaN(Number(keepalive))
  )
    return null;
  const handshake = stream === '-' || stream === '' ? keepalive === '0' : stream === '1';
  return { protocol, cipher, handshake, resumed: resumed === 'Resumed' };
}

/**
 * Sums complete log lines per host and minute, and HTTPS requests per minute, protocol and cipher
 * (lines with a tls field); Mailroom's own probe requests are not traffic.
 */
export function sumLines(lines: string[]): { sums: MinuteSum[]; tls: TlsMinuteSum[]; skipped: number } {
  const by = new Map<string, MinuteSum>();
  const byTls = new Map<string, TlsMinuteSum>();
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
      const tkey = `${minute} ${t.protocol} ${t.cipher}`;
      let ts = byTls.get(tkey);
      if (!ts)
        byTls.set(
          tkey,
          (ts = { minute, protocol: t.protocol, cipher: t.cipher, requests: 0, handshakes: 0, resumed: 0 }),
        );
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
