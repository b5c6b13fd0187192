import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { chmodSync, cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
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
    private readonly env: NodeJS.ProcessEnv = {},
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
export function stockApache(work: string, port: number, docRoot: string, serverName: string): PlainApache {
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
  writeFileSync(
    path.join(dir, 'sites-enabled', 'bench.conf'),
    `<VirtualHost *:${port}>\n` +
      `\tServerName ${serverName}\n` +
      '\tServerAdmin webmaster@localhost\n' +
      `\tDocumentRoot ${docRoot}\n` +
      '\tErrorLog ${APACHE_LOG_DIR}/error.log\n' +
      '\tCustomLog ${APACHE_LOG_DIR}/access.log combined\n' +
      `\t<Directory ${docRoot}>\n\t\tOptions Indexes FollowSymLinks\n\t\tAllowOverride None\n\t\tRequire all granted\n\t</Directory>\n` +
      '</VirtualHost>\n',
  );
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
