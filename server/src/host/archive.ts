import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream, promises as fs } from 'node:fs';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';

/** An archive a tool could not read; `reason` is what the tool said, last line first. */
export class UnreadableArchive extends Error {
  constructor(readonly reason: string) {
    super(reason);
  }
}

export async function sha256File(file: string): Promise<string> {
  const h = createHash('sha256');
  for await (const chunk of createReadStream(file)) h.update(chunk as Buffer);
  return h.digest('hex');
}

/**
 * Row counts of a pg_dump archive: the rows of each table's COPY block, as pg_restore writes them.
 * Throws UnreadableArchive with pg_restore's last error line when it fails.
 */
export async function pgDumpCounts(file: string): Promise<Record<string, number>> {
  const child = spawn('pg_restore', ['--data-only', '-f', '-', file], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (c: string) => (stderr += c));
  const counts: Record<string, number> = {};
  let current: string | null = null;
  const rl = createInterface({ input: child.stdout, crlfDelay: Infinity });
  for await (const line of rl) {
    if (current === null) {
      const m = /^COPY (?:[\w"]+\.)?"?([\w]+)"? /.exec(line);
      if (m) {
        current = m[1]!;
        counts[current] = 0;
      }
    } else if (line === '\\.') current = null;
    else counts[current]! += 1;
  }
  const code = await new Promise<number>((r) => child.on('close', (c) => r(c ?? 1)));
  if (code !== 0) throw new UnreadableArchive(stderr.trim().split('\n').pop() ?? '');
  return counts;
}

/**
 * Entries (not folders) in a .tar.gz, counted as tar lists them (streamed: mail folders are
 * large). Throws UnreadableArchive with tar's last error line when it fails.
 */
export async function countTarEntries(tarGz: string): Promise<number> {
  const child = spawn('tar', ['-tzf', tarGz, '--listed-incremental=/dev/null'], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (c: string) => (stderr += c.slice(0, 4000)));
  let n = 0;
  for await (const line of createInterface({ input: child.stdout, crlfDelay: Infinity }))
    if (line.trim() && !line.endsWith('/')) n++;
  const code = await new Promise<number>((r) => child.on('close', (c) => r(c ?? 1)));
  if (code !== 0) throw new UnreadableArchive(stderr.trim().split('\n').pop() ?? '');
  return n;
}

/**
 * Appends pg_restore's data script to `target`. pg_restore empties the search path; the
 * list-version triggers name their table unqualified, so the script keeps `public` on it.
 */
export async function pgRestoreScript(dump: string, list: string, target: string): Promise<void> {
  const child = spawn('pg_restore', ['--data-only', '-L', list, '-f', '-', dump], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (c: string) => (stderr += c.slice(0, 4000)));
  let head = true;
  const fix = new Transform({
    transform(chunk: Buffer, _enc, done) {
      if (!head) return done(null, chunk);
      head = false;
      done(
        null,
        Buffer.from(
          chunk
            .toString('utf8')
            .replace(
              "SELECT pg_catalog.set_config('search_path', '', false);",
              "SELECT pg_catalog.set_config('search_path', 'public', false);",
            ),
        ),
      );
    },
  });
  const closed = new Promise<number>((r) => child.on('close', (c) => r(c ?? 1)));
  await pipeline(child.stdout, fix, createWriteStream(target, { flags: 'a' }));
  const code = await closed;
  if (code !== 0)
    throw new Error(`pg_restore failed (exit ${code}): ${stderr.trim().split('\n').pop() ?? ''}`);
}

async function sameContent(a: string, b: string): Promise<boolean> {
  const [sa, sb] = await Promise.all([fs.stat(a), fs.stat(b).catch(() => null)]);
  if (!sb || sa.size !== sb.size || (sa.mode & 0o7777) !== (sb.mode & 0o7777)) return false;
  return (await sha256File(a)) === (await sha256File(b));
}

/**
 * Copies the tree under `from` onto the targets `targetOf` names (relative path -> absolute
 * path): each file whose content or mode differs is written beside its target and renamed into
 * place (owner kept when Mailroom runs as root); folders are made with their modes. Files that are
 * there but not in `from` stay. Answers the relative paths written.
 */
export async function copyChangedTree(from: string, targetOf: (rel: string) => string): Promise<string[]> {
  const written: string[] = [];
  const root = process.getuid?.() === 0;
  const walk = async (rel: string): Promise<void> => {
    for (const e of await fs.readdir(path.join(from, rel), { withFileTypes: true })) {
      const r = path.join(rel, e.name);
      const src = path.join(from, r);
      const dst = targetOf(r);
      if (e.isDirectory()) {
        const st = await fs.stat(src);
        const made = await fs.mkdir(dst, { recursive: true, mode: st.mode & 0o7777 });
        // A folder that was gone comes back with its archived owner too (a site's document root).
        if (made !== undefined && root) {
          await fs.chown(dst, st.uid, st.gid);
          await fs.chmod(dst, st.mode & 0o7777);
        }
        await walk(r);
      } else if (e.isFile()) {
        if (await sameContent(src, dst)) continue;
        const st = await fs.stat(src);
        const tmp = `${dst}.mailroom-restore`;
        await fs.copyFile(src, tmp);
        await fs.chmod(tmp, st.mode & 0o7777);
        if (root) await fs.chown(tmp, st.uid, st.gid);
        await fs.rename(tmp, dst);
        written.push(r);
      }
    }
  };
  await walk('');
  return written;
}
