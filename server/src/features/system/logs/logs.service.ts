import path from 'node:path';
import type { LogEntry, LogSource, LogsQuery } from '@mailroom/contract/system-live';
import type { AppDeps } from '../../../app-deps.ts';
import { fieldError } from '../../../http/errors.ts';
import { JOURNALCTL, followJournalLines, journalOutputLines, journaldRuns } from '../../../host/journal.ts';
import { fileLines, firstExisting, readBackwards } from '../../../host/log-files.ts';
import { appLogFileOf, appLogLines, readAppLogs } from './app-logs.service.ts';
import { parseJournalEntry, parseLogLine } from './log.parser.ts';

/** The files each source reads (system paths, under the host root), first existing wins. */
export const LOG_FILES: Record<Exclude<LogSource, 'mailroom' | 'apps'>, string[]> = {
  mail: ['/var/log/mail.log', '/var/log/maillog'],
  dns: ['/var/cache/bind/mailroom-named.log', '/var/log/named/named.log'],
  web: ['/var/log/apache2/error.log', '/var/log/apache2/access.log'],
  system: ['/var/log/syslog', '/var/log/messages'],
};
/** journald units per source (system mode with journald). */
const UNITS: Record<LogSource, string[]> = {
  mail: ['postfix@-.service', 'dovecot.service', 'rspamd.service'],
  dns: ['named.service'],
  web: ['apache2.service'],
  system: [],
  mailroom: ['mailroom.service'],
  apps: [],
};
const JOURNAL_PRIORITY = { error: '0..3', warning: '4..4', info: '5..6', debug: '7..7' } as const;

export const mailroomLogFile = (deps: AppDeps) => path.join(deps.config.dataDir, 'logs', 'mailroom.log');

/**
 * journald is read in system mode when it runs here; MAILROOM_LOG_READER=journald or =files
 * decides instead (a host whose daemons log to files while journald runs, or the tests).
 */
export function useJournal(deps: AppDeps): boolean {
  const forced = process.env.MAILROOM_LOG_READER;
  if (forced === 'journald') return true;
  if (forced === 'files') return false;
  return deps.config.hostRoot === '/' && journaldRuns();
}

/** journalctl's filter arguments for a query: the source's units, the level, the search. */
function journalFilters(source: LogSource, q: Pick<LogsQuery, 'level' | 'search'>): string[] {
  const args: string[] = [];
  for (const u of UNITS[source]) args.push('-u', u);
  if (q.level) args.push('-p', JOURNAL_PRIORITY[q.level]);
  if (q.search?.trim()) args.push('-g', q.search.trim(), '--case-sensitive=false');
  return args;
}

/**
 * The live stream from journald: `journalctl -o json -f -n 0` with the query's filters; each new
 * matching entry goes to `onEntry`. Answers the function that stops following.
 */
export function followJournal(
  source: LogSource,
  q: LogsQuery,
  onEntry: (e: LogEntry) => void,
  onEnd: (why: string) => void,
): () => void {
  const args = ['-o', 'json', '-f', '-n', '0', '--no-pager', ...journalFilters(source, q)];
  const f = entryFilter({ service: q.service });
  return followJournalLines(
    args,
    (line) => {
      if (!line.startsWith('{')) return;
      let e: LogEntry;
      try {
        e = parseJournalEntry(JSON.parse(line) as Record<string, unknown>, source);
      } catch {
        return;
      }
      if (f.entry(e)) onEntry({ ...e, id: `j:${e.id}` });
    },
    onEnd,
  );
}

export async function logFileOf(deps: AppDeps, source: LogSource, service?: string): Promise<string | null> {
  if (source === 'mailroom') return firstExisting([mailroomLogFile(deps)]);
  if (source === 'apps') return appLogFileOf(deps, service);
  return firstExisting(LOG_FILES[source].map((f) => deps.host.path(f)));
}

export function entryFilter(q: Pick<LogsQuery, 'level' | 'service' | 'search'>) {
  const search = q.search?.trim().toLowerCase() || null;
  const service = q.service?.trim().toLowerCase() || null;
  return {
    /** A cheap test on the raw line before it is parsed. */
    raw: (line: string) => !search || line.toLowerCase().includes(search),
    entry: (e: LogEntry) =>
      (!q.level || e.level === q.level) && (!service || e.service.toLowerCase().includes(service)),
  };
}

export async function readLogs(deps: AppDeps, q: LogsQuery) {
  const source = q.source ?? 'mail';
  const limit = q.limit ?? 50;
  // The applications' logs are files Mailroom writes, in both modes.
  if (source === 'apps') return readAppLogs(deps, q);
  if (useJournal(deps)) return readJournal(deps, source, q, limit);
  const file = await logFileOf(deps, source);
  if (!file)
    return {
      entries: [],
      nextCursor: null,
      origin:
        source === 'mailroom'
          ? `Mailroom writes its log to standard output; run it under systemd (journald) or send it to ${mailroomLogFile(deps)}.`
          : `No ${source} log here (looked for ${LOG_FILES[source].join(', ')}).`,
    };
  let end: number | undefined;
  if (q.cursor !== undefined) {
    if (!/^f:\d{1,15}$/.test(q.cursor)) throw fieldError('cursor', 'Not a cursor from a previous page.');
    end = Number(q.cursor.slice(2));
  }
  const f = entryFilter(q);
  const now = new Date();
  const entries: LogEntry[] = [];
  const page = await readBackwards(file, end, limit, (line) => {
    if (!f.raw(line)) return false;
    const e = parseLogLine(line, '', source, now);
    return e !== null && f.entry(e);
  });
  for (const l of page.lines) {
    const e = parseLogLine(l.text, `f:${l.offset}`, source, now);
    if (e) entries.push(e);
  }
  return { entries, nextCursor: page.next === null ? null : `f:${page.next}`, origin: file };
}

async function readJournal(deps: AppDeps, source: LogSource, q: LogsQuery, limit: number) {
  const args = ['-o', 'json', '-r', '--no-pager', '-n', String(limit + (q.cursor ? 1 : 0))];
  args.push(...journalFilters(source, q));
  if (q.cursor) {
    if (!q.cursor.startsWith('j:')) throw fieldError('cursor', 'Not a cursor from a previous page.');
    args.push(`--cursor=${q.cursor.slice(2)}`);
  }
  const r = await deps.host.run(JOURNALCTL, args, { timeoutMs: 20_000 });
  const f = entryFilter({ service: q.service });
  let entries = r.stdout
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => parseJournalEntry(JSON.parse(l) as Record<string, unknown>, source));
  if (q.cursor) entries = entries.filter((e) => e.id !== q.cursor!.slice(2));
  const full = entries.length >= limit;
  entries = entries
    .slice(0, limit)
    .filter(f.entry)
    .map((e) => ({ ...e, id: `j:${e.id}` }));
  return {
    entries,
    nextCursor: full && entries.length ? entries[entries.length - 1]!.id : null,
    origin: r.code === 0 ? 'journald' : `journalctl failed: ${r.stderr.trim().slice(0, 200)}`,
  };
}

/**
 * The filtered range as text, oldest first: every matching line before `cursor` (the whole file
 * without one), streamed line by line.
 */
export async function* downloadLines(deps: AppDeps, q: LogsQuery): AsyncGenerator<string> {
  const source = q.source ?? 'mail';
  if (source === 'apps') {
    yield* appLogLines(deps, q);
    return;
  }
  if (useJournal(deps)) {
    yield* journalLines(source, q);
    return;
  }
  const file = await logFileOf(deps, source);
  if (!file) return;
  const end = q.cursor && /^f:\d{1,15}$/.test(q.cursor) ? Number(q.cursor.slice(2)) : undefined;
  if (end === 0) return;
  const f = entryFilter(q);
  const now = new Date();
  for await (const line of fileLines(file, end)) {
    if (!f.raw(line)) continue;
    const e = parseLogLine(line, '', source, now);
    if (e && f.entry(e)) yield line + '\n';
  }
}

/** journald's entries of a source, oldest first, as `journalctl -o short-iso` writes them, streamed. */
async function* journalLines(source: LogSource, q: LogsQuery): AsyncGenerator<string> {
  const args = ['-o', 'short-iso', '--no-pager', ...journalFilters(source, q)];
  const before = q.cursor?.startsWith('j:') ? q.cursor.slice(2) : null;
  // Before a cursor: journalctl walks back from it (-r); the lines are turned oldest first here.
  if (before) args.push(`--cursor=${before}`, '-r');
  const service = q.service?.trim().toLowerCase();
  const held: string[] = [];
  let first = true;
  for await (const line of journalOutputLines(args)) {
    if (line.startsWith('-- ')) continue; // "-- No entries --", "-- Boot … --"
    // The entry at the cursor itself is the last one the page showed: not "before" it.
    if (before && first) {
      first = false;
      continue;
    }
    if (service && !line.toLowerCase().includes(service)) continue;
    if (before) held.push(line + '\n');
    else yield line + '\n';
  }
  for (let i = held.length - 1; i >= 0; i--) yield held[i]!;
}
