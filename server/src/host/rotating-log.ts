import { constants, promises as fs } from 'node:fs';
type FileHandle = fs.FileHandle;
import path from 'node:path';

/**
 * Application log files that Mailroom writes and rotates itself (issue 20, "logging").
 *
 * Why Mailroom and not logrotate: the writer of an app's log is Mailroom's supervisor (it reads the
 * app's stdout/stderr and appends the lines), in local and in system mode alike. logrotate would
 * have to copy-and-truncate (lines written between the copy and the truncation are lost) or signal
 * Mailroom to reopen; rotating where the lines are written loses nothing: while the file is renamed
 * and a new one opened, the lines wait in the writer's queue and land in the new file.
 *
 * The rule (the web server's defaults of spec §9: "log rotation 100M with 10 files daily"): the file
 * is rotated when a line would take it past `maxBytes`, or on the first line of a new day (UTC) when
 * it is not empty; `<file>.1` is the newest copy, `<file>.<keep>` the oldest, an older one is deleted.
 */
export interface LogRotation {
  maxBytes: number;
  keep: number;
  daily: boolean;
}

export const APP_LOG_ROTATION: LogRotation = { maxBytes: 100 * 1024 * 1024, keep: 10, daily: true };

let rotation: LogRotation = { ...APP_LOG_ROTATION };
/** The rule for files opened from now on (tests make the size small). */
export function setAppLogRotation(r: Partial<LogRotation>): void {
  rotation = { ...rotation, ...r };
}
export const appLogRotation = (): LogRotation => ({ ...rotation });

/** How often the writer checks the file it holds is still the file at its path, and its real size. */
const RESYNC_MS = 5000;

const utcDay = (d: Date) => d.toISOString().slice(0, 10);

/** The rotated copies of `file` that exist, newest first (`.1`, `.2`, …). */
export async function rotatedCopies(file: string): Promise<string[]> {
  const dir = path.dirname(file);
  const base = path.basename(file);
  const names = await fs.readdir(dir).catch(() => [] as string[]);
  return names
    .filter((n) => n.startsWith(`${base}.`) && /^\d+$/.test(n.slice(base.length + 1)))
    .sort((a, b) => Number(a.slice(base.length + 1)) - Number(b.slice(base.length + 1)))
    .map((n) => path.join(dir, n));
}

/** One log file, shared by every writer of it (the releases and instances of one app). */
class SharedLog {
  private handle: FileHandle | null = null;
  private size = 0;
  private day = '';
  private ino = 0;
  private syncedAt = 0;
  private chain: Promise<void> = Promise.resolve();
  private pending: string[] = [];
  private readonly rule = appLogRotation();
  refs = 0;

  constructor(readonly file: string) {}

  /** Queues the text (lines ending in \n); written in order, the lines queued meanwhile in one write. */
  write(text: string): void {
    this.pending.push(text);
    if (this.pending.length > 1) return; // a drain is already queued and will take it
    this.chain = this.chain.then(() => this.drain()).catch(() => this.drop());
  }

  /** Waits until everything queued is written. */
  flushed(): Promise<void> {
    return this.chain;
  }

  async close(): Promise<void> {
    await this.chain;
    await this.drop();
  }

  private async drop(): Promise<void> {
    const h = this.handle;
    this.handle = null;
    await h?.close().catch(() => undefined);
  }

  private async open(): Promise<void> {
    await fs.mkdir(path.dirname(this.file), { recursive: true });
    // O_NOFOLLOW: a symbolic link put in place of the log (by the app's user) is never followed.
    const h = await fs.open(
      this.file,
      constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | constants.O_NOFOLLOW,
      0o640,
    );
    const st = await h.stat();
    this.handle = h;
    this.size = st.size;
    this.ino = st.ino;
    this.day = st.size > 0 ? utcDay(st.mtime) : utcDay(new Date());
    this.syncedAt = Date.now();
  }

  /** Another program may have emptied the file (Clear Logs), renamed or deleted it: follow it. */
  private async resync(): Promise<void> {
    this.syncedAt = Date.now();
    const atPath = await fs.lstat(this.file).catch(() => null);
    if (!atPath || atPath.ino !== this.ino) {
      await this.drop();
      await this.open();
      return;
    }
    this.size = atPath.size;
  }

  private async rotate(): Promise<void> {
    await this.drop();
    const { keep } = this.rule;
    for (const old of await rotatedCopies(this.file)) {
      if (Number(old.slice(this.file.length + 1)) >= keep) await fs.rm(old, { force: true });
    }
    for (let i = keep - 1; i >= 1; i--) {
      await fs.rename(`${this.file}.${i}`, `${this.file}.${i + 1}`).catch(() => undefined);
    }
    if (keep >= 1) await fs.rename(this.file, `${this.file}.1`).catch(() => undefined);
    else await fs.rm(this.file, { force: true });
    await this.open();
  }

  /** Writes what is queued: as few writes as the rotation allows (a file never passes maxBytes by a batch). */
  private async drain(): Promise<void> {
    const lines = this.pending;
    this.pending = [];
    if (!this.handle) await this.open();
    else if (Date.now() - this.syncedAt > RESYNC_MS) await this.resync();
    let batch = '';
    let batchBytes = 0;
    for (const text of lines) {
      const bytes = Buffer.byteLength(text);
      const now = new Date();
      const newDay = this.rule.daily && this.day !== utcDay(now);
      if (this.size + batchBytes > 0 && (this.size + batchBytes + bytes > this.rule.maxBytes || newDay)) {
        if (batch) await this.handle!.writeFile(batch);
        this.size += batchBytes;
        batch = '';
        batchBytes = 0;
        await this.rotate();
      }
      if (newDay) this.day = utcDay(now);
      batch += text;
      batchBytes += bytes;
    }
    if (batch) await this.handle!.writeFile(batch);
    this.size += batchBytes;
  }
}

const open = new Map<string, SharedLog>();

/** A writer of the log file `file` (machine path); `release()` when done with it. */
export interface LogWriter {
  write(line: string): void;
  flushed(): Promise<void>;
  release(): Promise<void>;
}

export function acquireLog(file: string): LogWriter {
  let log = open.get(file);
  if (!log) {
    log = new SharedLog(file);
    open.set(file, log);
  }
  log.refs++;
  const l = log;
  let released = false;
  return {
    write: (line) => l.write(line),
    flushed: () => l.flushed(),
    release: async () => {
      if (released) return;
      released = true;
      l.refs--;
      if (l.refs > 0) return l.flushed();
      if (open.get(file) === l) open.delete(file);
      return l.close();
    },
  };
}
