import path from 'node:path';
import type { ClearableLog, LogFile } from '@mailroom/contract/system-live';
import type { AppDeps } from '../../../app-deps.ts';
import { emptyFile, folderNames, infoOf, removeOneFile } from '../../../host/disk-files.ts';
import { appLogFiles } from './app-logs.service.ts';

/**
 * Clear Logs (spec §2.10): the log files Mailroom writes or manages, and nothing else.
 * - mail: the mail log Postfix (maillog_file) and Dovecot write, and rsyslog's mail.* files;
 * - dns: the log channels of the named.conf Mailroom renders (mailroom-*.log in BIND's folder);
 * - mailroom: Mailroom's own log folder in the data folder;
 * - apps: the web applications' logs (their output, written and rotated by Mailroom at each Log Path).
 * The current file of each is emptied in place (truncate: its writer, appending, keeps writing to
 * it); rotated copies (`.1`, `.2.gz`, `-20261122`) are deleted. journald's store, the web
 * server's and the system's logs are never touched.
 */
interface Place {
  /** The folder (already mapped under the host root or the data folder). */
  dir: string;
  /** Whether a file name in that folder is a current log of this kind. */
  current: (name: string) => boolean;
}

const ROTATED = /(?:\.\d+|-\d{8})(?:\.gz|\.xz|\.bz2|\.zst)?$/;
const MAIL_NAMES = ['mail.log', 'mail.err', 'mail.warn', 'mail.info', 'maillog'];

function places(deps: AppDeps): Record<Exclude<ClearableLog, 'apps'>, Place[]> {
  return {
    mail: [{ dir: deps.host.path('/var/log'), current: (n) => MAIL_NAMES.includes(n) }],
    dns: [{ dir: deps.host.path('/var/cache/bind'), current: (n) => /^mailroom-[a-z]+\.log$/.test(n) }],
    mailroom: [{ dir: path.join(deps.config.dataDir, 'logs'), current: (n) => n.endsWith('.log') }],
  };
}

/** A name in the folder: the current log, a rotated copy of one, or not ours (null). */
function classify(place: Place, name: string): 'current' | 'rotated' | null {
  if (place.current(name)) return 'current';
  const base = name.replace(ROTATED, '');
  return base !== name && place.current(base) ? 'rotated' : null;
}

export async function listLogFiles(deps: AppDeps, only?: ClearableLog[]): Promise<LogFile[]> {
  const out: LogFile[] = [];
  for (const [log, ps] of Object.entries(places(deps)) as [ClearableLog, Place[]][]) {
    if (only && !only.includes(log)) continue;
    for (const p of ps) {
      const names = await folderNames(p.dir);
      for (const name of names.sort()) {
        const kind = classify(p, name);
        if (!kind) continue;
        const file = path.join(p.dir, name);
        const st = await infoOf(file);
        // Regular files only: a symlink could point anywhere.
        if (!st?.isFile()) continue;
        out.push({
          log,
          path: file,
          size: st.size,
          modified: st.mtime.toISOString(),
          rotated: kind === 'rotated',
        });
      }
    }
  }
  if (!only || only.includes('apps')) out.push(...(await appLogFiles(deps)));
  return out;
}

export async function clearLogs(deps: AppDeps, logs: ClearableLog[]) {
  const files = await listLogFiles(deps, logs);
  let emptied = 0;
  let deleted = 0;
  let freedBytes = 0;
  const errors: string[] = [];
  for (const f of files) {
    try {
      if (f.rotated) {
        await removeOneFile(f.path);
        deleted++;
      } else {
        await emptyFile(f.path);
        emptied++;
      }
      freedBytes += f.size;
    } catch (err) {
      errors.push(`${f.path}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
    }
  }
  return { emptied, deleted, freedBytes, errors };
}
