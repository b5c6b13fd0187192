import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { eventually, sleep } from './eventually.ts';

/**
 * Starts BIND's `named` in the foreground on the configuration Mailroom rendered under a host
 * root (`<root>/etc/bind/mailroom/named.conf`, unedited) and waits until it has loaded it.
 * Stops it by pid.
 */
export interface NamedDaemon {
  child: ChildProcess;
  /** Everything named printed so far. */
  log(): string;
  stop(): Promise<void>;
}

/** `named`: the program; `hostPath`: maps a system path into the host root (`Host.path`). */
export async function startNamed(
  named: string,
  hostPath: (systemPath: string) => string,
): Promise<NamedDaemon> {
  // named needs the run folder for its pid file; the rendered config points there.
  mkdirSync(hostPath('/run/named'), { recursive: true });
  let out = '';
  const child = spawn(named, ['-g', '-c', hostPath('/etc/bind/mailroom/named.conf')], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (out += d.toString()));
  const daemon: NamedDaemon = {
    child,
    log: () => out,
    async stop() {
      if (!child.pid || child.exitCode !== null) return;
      const done = new Promise((r) => child.once('exit', r));
      process.kill(child.pid, 'SIGTERM');
      await Promise.race([done, sleep(5000)]);
      if (child.exitCode === null) process.kill(child.pid, 'SIGKILL');
    },
  };
  try {
    await eventually(
      'named to start',
      async () => out,
      // "running" alone on a line: startup done (the first lines say "running on Linux …").
      (l) => /\srunning\s*$/m.test(l) || child.exitCode !== null,
      30_000,
    );
  } catch (err) {
    await daemon.stop();
    throw err;
  }
  if (child.exitCode !== null) throw new Error(`named exited:\n${out}`);
  return daemon;
}
