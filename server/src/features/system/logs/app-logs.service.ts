import type { LogEntry, LogFile, LogLevel, LogsQuery } from '@mailroom/contract/system-live';
import type { AppDeps } from '../../../app-deps.ts';
import { fieldError } from '../../../http/errors.ts';
import { infoOf } from '../../../host/disk-files.ts';
import { fileLines, readBackwards } from '../../../host/log-files.ts';
import type { Host } from '../../../host/host.ts';
import { rotatedCopies } from '../../../host/rotating-log.ts';
import { levelOfText } from './log.parser.ts';

/**
 * The web applications' logs in the System Logs screen (source `apps`, issue 20): each application's
 * output, which Mailroom writes to its Log Path (`<ISO time> <name>[<pid>]: <text>`) and rotates
 * (host/rotating-log.ts). The web area registers where each app's file is; this area never reaches
 * into the web area's tables. The files are read in both modes (journald holds no app output).
 */
export interface AppLogTarget {
  /** The application's name: the service of its lines. */
  name: string;
  /** Its log file (machine path). */
  file: string;
}
export type AppLogSource = () => Promise<AppLogTarget[]>;

const registries = new WeakMap<object, AppLogSource>();

export function registerAppLogs(host: Host, source: AppLogSource): void {
  registries.set(host, source);
}

export async function appLogTargets(host: Host): Promise<AppLogTarget[]> {
  const source = registries.get(host);
  return source ? source().catch(() => []) : [];
}

/** The file when it is a regular file (a symbolic link put there by the app's user is not read). */
async function regularFile(file: string): Promise<string | null> {
  return (await infoOf(file))?.isFile() ? file : null;
}

/** The apps a service filter names: the one of that exact name, else those whose name contains it. */
function chosen(targets: AppLogTarget[], service: string | undefined): AppLogTarget[] {
  const s = service?.trim().toLowerCase();
  if (!s) return targets;
  const exact = targets.filter((t) => t.name === s);
  return exact.length ? exact : targets.filter((t) => t.name.includes(s));
}

const LINE = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?Z) ([a-z][a-z0-9-]{0,23})\[(\d+)\]: ?(.*)$/;
const JSON_LEVELS: Record<string, LogLevel> = {
  '10': 'debug',
  '20': 'debug',
  '30': 'info',
  '40': 'warning',
  '50': 'error',
  '60': 'error',
  trace: 'debug',
  debug: 'debug',
  info: 'info',
  notice: 'info',
  warn: 'warning',
  warning: 'warning',
  error: 'error',
  fatal: 'error',
  critical: 'error',
};

/** The level of an app's line: a JSON logger's own `level` (pino, bunyan, winston), else its words. */
function levelOf(text: string): LogLevel {
  if (text.startsWith('{')) {
    try {
      const j = JSON.parse(text) as { level?: unknown };
      const l = JSON_LEVELS[String(j.level).toLowerCase()];
      if (l) return l;
    } catch {
      /* plain text */
    }
  }
  return levelOfText(text);
}

/** One line of an app's log; `app` names the file's app (for a line not written by Mailroom). */
export function parseAppLogLine(line: string, id: string, app: string, now = new Date()): LogEntry | null {
  if (!line.trim()) return null;
  const m = LINE.exec(line);
  if (!m) {
    return {
      id,
      timestamp: now.toISOString(),
      level: levelOf(line),
      service: app,
      message: line,
      source: 'apps',
      pid: null,
    };
  }
  const pid = Number(m[3]);
  return {
    id,
    timestamp: new Date(m[1]!).toISOString(),
    level: levelOf(m[4]!),
    service: m[2]!,
    message: m[4]!,
    source: 'apps',
    pid: pid > 0 ? pid : null,
  };
}

function entryTest(q: Pick<LogsQuery, 'level' | 'search'>) {
  const search = q.search?.trim().toLowerCase() || null;
  return {
    raw: (line: string) => !search || line.toLowerCase().includes(search),
    entry: (e: LogEntry) => !q.level || e.level === q.level,
  };
}

/** `a:<name>~<offset>,…`: where each app's file was left (0: nothing older). */
function parseCursor(cursor: string): Map<string, number> {
  if (!/^a:(?:[a-z][a-z0-9-]{0,23}~\d{1,15})(?:,[a-z][a-z0-9-]{0,23}~\d{1,15})*$/.test(cursor))
    throw fieldError('cursor', 'Not a cursor from a previous page.');
  return new Map(
    cursor
      .slice(2)
      .split(',')
      .map((p) => {
        const [n, o] = p.split('~');
        return [n!, Number(o)] as const;
      }),
  );
}

/**
 * A page of the apps' logs, newest first: every chosen app's file read backwards from where the
 * cursor left it, merged by time. The cursor keeps each file's own position, so no line is shown
 * twice or skipped; an app created after the first page joins at the next reload.
 */
export async function readAppLogs(deps: AppDeps, q: LogsQuery) {
  const limit = q.limit ?? 50;
  const all = await appLogTargets(deps.host);
  const positions = q.cursor !== undefined ? parseCursor(q.cursor) : null;
  const targets = chosen(all, q.service).filter((t) => !positions || (positions.get(t.name) ?? 0) > 0);
  const test = entryTest(q);
  const now = new Date();
  type Found = { app: string; offset: number; bytes: number; e: LogEntry };
  const found: Found[] = [];
  const where = new Map<string, number>();
  const files: string[] = [];
  for (const t of targets) {
    const file = await regularFile(t.file);
    if (!file) continue;
    files.push(file);
    const page = await readBackwards(file, positions?.get(t.name), limit, (line) => {
      if (!test.raw(line)) return false;
      const e = parseAppLogLine(line, '', t.name, now);
      return e !== null && test.entry(e);
    });
    // Nothing of this file shown: the next page reads it again from just after its newest candidate.
    const newest = page.lines[0];
    where.set(t.name, newest ? newest.offset + Buffer.byteLength(newest.text) + 1 : (page.next ?? 0));
    for (const l of page.lines) {
      const e = parseAppLogLine(l.text, `a:${t.name}~${l.offset}`, t.name, now)!;
      found.push({ app: t.name, offset: l.offset, bytes: Buffer.byteLength(l.text), e });
    }
  }
  found.sort(
    (a, b) => b.e.timestamp.localeCompare(a.e.timestamp) || a.app.localeCompare(b.app) || b.offset - a.offset,
  );
  const shown = found.slice(0, limit);
  for (const f of shown) where.set(f.app, f.offset);
  // A file whose every candidate was shown and that has nothing older: done.
  const more = [...where.values()].some((o) => o > 0);
  const nextCursor = more ? `a:${[...where.entries()].map(([n, o]) => `${n}~${o}`).join(',')}` : null;
  return {
    entries: shown.map((f) => f.e),
    nextCursor: nextCursor && nextCursor.length <= 4000 ? nextCursor : null,
    origin:
      files.length === 1
        ? files[0]!
        : files.length
          ? `${files.length} application logs`
          : all.length
            ? 'No application has written a log yet.'
            : 'No web applications here.',
  };
}

/** The live stream's file for `apps`: the app the service filter names (only one). */
export async function appLogFileOf(deps: AppDeps, service: string | undefined): Promise<string | null> {
  const t = chosen(await appLogTargets(deps.host), service);
  return t.length === 1 ? regularFile(t[0]!.file) : null;
}

/** Download: the chosen apps' matching lines, oldest first, one app after another. */
export async function* appLogLines(deps: AppDeps, q: LogsQuery): AsyncGenerator<string> {
  const positions = q.cursor?.startsWith('a:') ? parseCursor(q.cursor) : null;
  const test = entryTest(q);
  const now = new Date();
  for (const t of chosen(await appLogTargets(deps.host), q.service)) {
    const end = positions ? positions.get(t.name) : undefined;
    if (positions && !end) continue;
    const file = await regularFile(t.file);
    if (!file) continue;
    for await (const line of fileLines(file, end)) {
      if (!test.raw(line)) continue;
      const e = parseAppLogLine(line, '', t.name, now);
      if (e && test.entry(e)) yield line + '\n';
    }
  }
}

/** The apps' log files and their rotated copies, for the log files table and Clear Logs. */
export async function appLogFiles(deps: AppDeps): Promise<LogFile[]> {
  const out: LogFile[] = [];
  for (const t of await appLogTargets(deps.host)) {
    for (const [file, rotated] of [
      [t.file, false] as const,
      ...(await rotatedCopies(t.file)).map((f) => [f, true] as const),
    ]) {
      const st = await infoOf(file);
      // Regular files only: a symlink could point anywhere.
      if (!st?.isFile()) continue;
      out.push({
        log: 'apps',
        path: file,
        size: st.size,
        modified: st.mtime.toISOString(),
        rotated,
        app: t.name,
      });
    }
  }
  return out;
}
