import path from 'node:path';
import type { CleanupKind, SystemDisk } from '@mailroom/contract/system-live';
import si from 'systeminformation';
import { folderEntries, infoOf, removeTree, walkFiles as walk } from '../../../host/disk-files.ts';
import type { Host } from '../../../host/host.ts';

export async function listDisks(): Promise<SystemDisk[]> {
  const disks = await si.fsSize();
  return disks.map((d) => ({
    device: d.fs,
    mountPoint: d.mount,
    fileSystem: d.type,
    totalSize: d.size,
    usedSize: d.used,
    availableSize: d.available,
    usagePercent: Math.round((d.use ?? 0) * 10) / 10,
  }));
}

/** The cleanup's three defined targets (system paths, under the host root). */
export const CLEANUP: Record<CleanupKind, { label: string; dir: string }> = {
  'apt-cache': { label: 'Downloaded package files (apt cache)', dir: '/var/cache/apt/archives' },
  'rotated-logs': { label: 'Rotated logs (*.1, *.gz)', dir: '/var/log' },
  'removed-mail': { label: "Mailroom's removed mail folders", dir: '/var/vmail/.removed' },
};
export const DEFAULT_DAYS = 30;

interface Candidate {
  path: string;
  bytes: number;
}

const ROTATED = /\.(\d+|\d+\.gz|gz|xz|bz2|zst)$/;

/** What one kind would remove: whole removed-mail folders older than `days`, files otherwise. */
async function candidates(host: Host, kind: CleanupKind, days: number): Promise<Candidate[]> {
  const dir = host.path(CLEANUP[kind].dir);
  const out: Candidate[] = [];
  if (kind === 'apt-cache') {
    await walk(dir, (f, st) => {
      if (f.endsWith('.deb')) out.push({ path: f, bytes: st.size });
    });
  } else if (kind === 'rotated-logs') {
    await walk(dir, (f, st) => {
      if (ROTATED.test(path.basename(f))) out.push({ path: f, bytes: st.size });
    });
  } else {
    const cutoff = Date.now() - days * 86_400_000;
    // /var/vmail/.removed/<domain>/<folder>-<stamp>: a removed mailbox is a folder.
    for (const domain of await folderEntries(dir)) {
      if (!domain.isDirectory()) continue;
      const ddir = path.join(dir, domain.name);
      for (const box of await folderEntries(ddir)) {
        const p = path.join(ddir, box.name);
        const st = await infoOf(p);
        if (!st || st.mtimeMs > cutoff) continue;
        let bytes = 0;
        if (st.isDirectory()) await walk(p, (_f, s) => (bytes += s.size));
        else bytes = st.size;
        out.push({ path: p, bytes });
      }
    }
  }
  return out;
}

export async function previewCleanup(host: Host, days = DEFAULT_DAYS) {
  const items = await Promise.all(
    (Object.keys(CLEANUP) as CleanupKind[]).map(async (kind) => {
      const c = await candidates(host, kind, days);
      return {
        kind,
        label:
          kind === 'removed-mail' ? `${CLEANUP[kind].label} older than ${days} days` : CLEANUP[kind].label,
        path: CLEANUP[kind].dir,
        files: c.length,
        bytes: c.reduce((a, b) => a + b.bytes, 0),
      };
    }),
  );
  return { items, totalBytes: items.reduce((a, b) => a + b.bytes, 0), days };
}

/** Removes what the preview of the same kinds and days lists (computed again, never from the client). */
export async function runCleanup(host: Host, kinds: CleanupKind[], days = DEFAULT_DAYS) {
  let removedFiles = 0;
  let freedBytes = 0;
  const errors: string[] = [];
  for (const kind of new Set(kinds)) {
    for (const c of await candidates(host, kind, days)) {
      try {
        await removeTree(c.path);
        removedFiles++;
        freedBytes += c.bytes;
      } catch (err) {
        errors.push(`${c.path}: ${(err as Error).message}`);
      }
    }
  }
  return { removedFiles, freedBytes, errors: errors.slice(0, 20) };
}
