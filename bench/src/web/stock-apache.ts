import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import {
  chmodSync,
  cpSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import net from 'node:net';
import path from 'node:path';

/**
 * Modules Debian's apache2 package does not enable: the rate-limit modules' packages
 * (libapache2-mod-evasive, -qos, -security2) enable themselves when installed. A stock Apache
 * has none of them.
 */
const NOT_STOCK = ['evasive', 'qos', 'security2', 'unique_id'];

function portOpen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = net.connect(port, '127.0.0.1');
    s.once('connect', () => {
      s.destroy();
      resolve(true);
    });
    s.once('error', () => resolve(false));
  });
}

/** A plain `apache2 -d <dir> -f <dir>/apache2.conf -DFOREGROUND`, stopped by its own pid. */
export class PlainApache {
  private child: ChildProcess | null = null;
  private output = '';
  constructor(
    readonly dir: string,
    readonly port: number,
    readonly env: NodeJS.ProcessEnv = {},
  ) {}

  async start(): Promise<void> {
    this.child = spawn(
      'apache2',
      ['-d', this.dir, '-f', path.join(this.dir, 'apache2.conf'), '-DFOREGROUND'],
      {
        stdio: ['ignore', 'pipe', 'pipe'],
        env: { ...process.env, LANG: 'C', ...this.env },
      },
    );
    this.child.stdout?.on('data', (d: Buffer) => (this.output += d.toString()));
    this.child.stderr?.on('data', (d: Buffer) => (this.output += d.toString()));
    const until = Date.now() + 15_000;
    while (Date.now() < until) {
      if (this.child.exitCode !== null) throw new Error(`apache2 (${this.dir}) exited: ${this.output}`);
      if (await portOpen(this.port)) return;
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error(`apache2 (${this.dir}) did not answer on ${this.port}: ${this.output}`);
  }

  /**
   * CPU seconds Apache has used: the master and its live children, plus the children it has
   * reaped (cutime/cstime), from /proc. Compared across a load run: CPU per request, which a busy
   * machine changes far less than requests per second.
   */
  cpuSeconds(): number {
    const pid = this.child?.pid;
    if (!pid) return NaN;
    const fields = (p: number) => {
      try {
        const st = readFileSync(`/proc/${p}/stat`, 'utf8');
        return st.slice(st.lastIndexOf(')') + 2).split(' ');
      } catch {
        return null;
      }
    };
    // After the command name: [1] ppid, [11] utime, [12] stime, [13] cutime, [14] cstime.
    const master = fields(pid);
    if (!master) return NaN;
    let ticks = Number(master[11]) + Number(master[12]) + Number(master[13]) + Number(master[14]);
    for (const d of readdirSync('/proc')) {
      if (!/^\d+$/.test(d)) continue;
      const f = fields(Number(d));
      if (f && Number(f[1]) === pid) ticks += Number(f[11]) + Number(f[12]);
    }
    return ticks / 100;
  }

  async stop(): Promise<void> {
    const c = this.child;
    if (!c || c.exitCode !== null || c.signalCode !== null) return;
    const done = new Promise<void>((r) => c.once('exit', () => r()));
    c.kill('SIGTERM');
    await Promise.race([done, new Promise((r) => setTimeout(r, 8000))]);
    if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  }
}

/**
 * A stock Debian Apache in `work`: a copy of /etc/apache2 as the package installs it (its modules,
 * confs and apache2.conf unchanged, the rate-limit modules' packages left out), Listen on a loopback
 * port, and in place of 000-default one site shaped like it serving `docRoot` (the `<Directory>`
 * block apache2.conf gives /var/www/).
 */
export function stockApache(
  work: string,
  port: number,
  docRoot: string,
  serverName: string,
  /** Other sites before it (their names; the same shape, their own folders): a big host's lookup. */
  others: { name: string; docRoot: string }[] = [],
): PlainApache {
  const dir = path.join(work, 'apache2');
  rmSync(work, { recursive: true, force: true });
  mkdirSync(work, { recursive: true });
  cpSync('/etc/apache2', dir, { recursive: true, verbatimSymlinks: true });
  for (const m of NOT_STOCK)
    for (const ext of ['load', 'conf'])
      rmSync(path.join(dir, 'mods-enabled', `${m}.${ext}`), { force: true });
  writeFileSync(path.join(dir, 'ports.conf'), `Listen 127.0.0.1:${port}\n`);
  rmSync(path.join(dir, 'sites-enabled'), { recursive: true, force: true });
  mkdirSync(path.join(dir, 'sites-enabled'));
  const site = (name: string, root: string) =>
    `<VirtualHost *:${port}>\n` +
    `\tServerName ${name}\n` +
    '\tServerAdmin webmaster@localhost\n' +
    `\tDocumentRoot ${root}\n` +
    '\tErrorLog ${APACHE_LOG_DIR}/error.log\n' +
    '\tCustomLog ${APACHE_LOG_DIR}/access.log combined\n' +
    `\t<Directory ${root}>\n\t\tOptions Indexes FollowSymLinks\n\t\tAllowOverride None\n\t\tRequire all granted\n\t</Directory>\n` +
    '</VirtualHost>\n';
  // Files in name order, like a2ensite's links: the measured site last, as in Mailroom's tree.
  others.forEach((o, i) =>
    writeFileSync(
      path.join(dir, 'sites-enabled', `${String(i).padStart(5, '0')}-${o.name}.conf`),
      site(o.name, o.docRoot),
    ),
  );
  writeFileSync(path.join(dir, 'sites-enabled', `zzzzz-${serverName}.conf`), site(serverName, docRoot));
  for (const d of ['run', 'lock', 'log']) mkdirSync(path.join(work, d), { recursive: true });
  chmodSync(work, 0o755);
  return new PlainApache(dir, port, {
    APACHE_RUN_USER: 'www-data',
    APACHE_RUN_GROUP: 'www-data',
    APACHE_PID_FILE: path.join(work, 'run/apache2.pid'),
    APACHE_RUN_DIR: path.join(work, 'run'),
    APACHE_LOCK_DIR: path.join(work, 'lock'),
    APACHE_LOG_DIR: path.join(work, 'log'),
  });
}

/** The modules a configuration tree loads (`apache2 -M`), for the report. */
export function loadedModules(dir: string, env: NodeJS.ProcessEnv = {}): string[] {
  const out = execFileSync('apache2', ['-d', dir, '-f', path.join(dir, 'apache2.conf'), '-M'], {
    env: { ...process.env, LANG: 'C', ...env },
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  return out
    .split('\n')
    .map((l) => /^\s*(\S+)_module/.exec(l)?.[1])
    .filter((m): m is string => !!m)
    .sort();
}

export const fileExists = (p: string) => existsSync(p);
export const readText = (p: string) => readFileSync(p, 'utf8');
