import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

export interface Cluster {
  url: string;
  /** Stops the server and removes its folder once it has exited. */
  stop(): Promise<void>;
}

const PG_BIN_DIRS = [
  '/usr/lib/postgresql/17/bin',
  '/usr/lib/postgresql/16/bin',
  '/usr/lib/postgresql/15/bin',
];

export function findPgBin(): string | null {
  for (const d of PG_BIN_DIRS)
    if (existsSync(path.join(d, 'initdb')) && existsSync(path.join(d, 'postgres'))) return d;
  return null;
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      srv.close(() => (typeof addr === 'object' && addr ? resolve(addr.port) : reject(new Error('no port'))));
    });
  });
}

function postgresIds(): { uid?: number; gid?: number } {
  const id = spawnSync('id', ['-u', 'postgres'], { encoding: 'utf8' });
  const gid = spawnSync('id', ['-g', 'postgres'], { encoding: 'utf8' });
  if (id.status !== 0)
    throw new Error("running as root needs a 'postgres' user (Debian package: postgresql)");
  return { uid: Number(id.stdout.trim()), gid: Number(gid.stdout.trim()) };
}

/** A throwaway PostgreSQL cluster on a free loopback port, stopped by its process id. */
export async function startCluster(): Promise<Cluster> {
  const bin = findPgBin();
  if (!bin) throw new Error('PostgreSQL binaries not found (Debian package: postgresql)');
  const dir = mkdtempSync(path.join(os.tmpdir(), 'mailroom-pg-'));
  // initdb refuses to run as root: run the cluster as the 'postgres' user when we are root.
  const ids = process.getuid?.() === 0 ? postgresIds() : {};
  if (ids.uid !== undefined) spawnSync('chown', [`${ids.uid}:${ids.gid}`, dir]);
  const data = path.join(dir, 'data');
  const init = spawnSync(
    path.join(bin, 'initdb'),
    ['-D', data, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--no-sync'],
    {
      encoding: 'utf8',
      ...ids,
    },
  );
  if (init.status !== 0) throw new Error(`initdb failed: ${init.stderr}`);
  const port = await freePort();
  const proc = spawn(
    path.join(bin, 'postgres'),
    [
      '-D',
      data,
      '-p',
      String(port),
      '-h',
      '127.0.0.1',
      '-k',
      dir,
      '-c',
      'fsync=off',
      '-c',
      'synchronous_commit=off',
      '-c',
      'full_page_writes=off',
      '-c',
      'max_connections=200',
    ],
    { stdio: 'ignore', ...ids },
  );
  const url = `postgres://postgres@127.0.0.1:${port}/postgres`;
  const deadline = Date.now() + 30_000;
  for (;;) {
    const ok = await new Promise<boolean>((resolve) => {
      const s = net.connect(port, '127.0.0.1', () => {
        s.end();
        resolve(true);
      });
      s.on('error', () => resolve(false));
    });
    if (ok) break;
    if (Date.now() > deadline) throw new Error('PostgreSQL did not start in 30 s');
    await new Promise((r) => setTimeout(r, 100));
  }
  // Accepting TCP is not the same as accepting queries: wait for the startup to finish.
  await new Promise((r) => setTimeout(r, 300));
  return {
    url,
    async stop() {
      // Removing the folder only once the server has exited: a timer after exit never ran (the
      // test process ended first), and every run left its cluster in the temporary folder.
      if (proc.exitCode === null && proc.signalCode === null) {
        const exited = new Promise<void>((resolve) => proc.once('exit', () => resolve()));
        const signal = (sig: NodeJS.Signals) => {
          try {
            if (proc.pid) process.kill(proc.pid, sig);
          } catch {
            /* already gone */
          }
        };
        signal('SIGQUIT');
        const kill = setTimeout(() => signal('SIGKILL'), 10_000);
        await exited;
        clearTimeout(kill);
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
