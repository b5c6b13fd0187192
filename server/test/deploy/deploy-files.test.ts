import { spawnSync } from 'node:child_process';
import { APACHE_RELOAD, phpFpmReload } from '../../src/features/web/stack/apache-control.service.ts';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIND_SYSTEM_PATHS } from '../../src/features/dns/stack/bind.layout.ts';
import { MAIL_PATHS } from '../../src/features/mail/stack/mail-paths.layout.ts';
import { reloadCommand, SYSTEM_UNITS } from '../../src/host/system-services.ts';
import type { DaemonName } from '../../src/host/service-control.ts';
import { skipLoudly } from '../skip-loudly.ts';

// The files of deploy/ (systemd unit, sudoers) checked with the tools that will read them, and
// kept in step with what the code really does and what docs/install.md says.
const ROOT = path.resolve(import.meta.dirname, '../../..');
const read = (rel: string) => readFileSync(path.join(ROOT, rel), 'utf8');
const BIN_DIRS = ['/usr/bin', '/usr/sbin', '/bin', '/sbin'];
const which = (cmd: string) => BIN_DIRS.map((d) => path.join(d, cmd)).find((p) => existsSync(p)) ?? null;

/** Skips loudly when a program is missing; fails instead with MAILROOM_REQUIRE_ALL=1. */
function needProgram(cmd: string, pkg: string): string | null {
  const found = which(cmd);
  if (found) return found;
  const msg = `${cmd} missing (Debian package: ${pkg}): this check is SKIPPED`;
  skipLoudly(msg);
  return null;
}

/** Every value of a path table, with placeholders for the per-domain ones. */
function pathsOf(table: Record<string, string | ((a: string, b: string) => string)>): string[] {
  return Object.values(table).map((v) => (typeof v === 'function' ? v('<domain>', '<selector>') : v));
}

const unitText = read('deploy/mailroom.service');
const unitValues = (key: string) =>
  unitText
    .split('\n')
    .filter((l) => l.startsWith(`${key}=`))
    .flatMap((l) =>
      l
        .slice(key.length + 1)
        .trim()
        .split(/\s+/),
    );

describe('deploy/mailroom.service', () => {
  it('passes systemd-analyze verify without a single warning about it', () => {
    const analyze = needProgram('systemd-analyze', 'systemd');
    if (!analyze) return;
    const dir = mkdtempSync(path.join(os.tmpdir(), 'mailroom-unit-'));
    try {
      // verify checks that ExecStart's program exists: point it at this machine's node if needed.
      const unit = existsSync('/usr/bin/node')
        ? unitText
        : unitText.replace('/usr/bin/node', process.execPath);
      const file = path.join(dir, 'mailroom.service');
      writeFileSync(file, unit);
      const r = spawnSync(analyze, ['verify', file], { encoding: 'utf8' });
      const aboutIt = (r.stderr + r.stdout).split('\n').filter((l) => l.includes('mailroom.service'));
      expect(aboutIt, r.stderr).toEqual([]);
      expect(r.status, r.stderr).toBe(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('runs the compiled server with plain node as the mailroom user, nothing built at start', () => {
    const exec = unitValues('ExecStart');
    expect(exec[0]).toBe('/usr/bin/node');
    expect(exec.at(-1)).toBe('/opt/mailroom/server/dist/main.js');
    expect(unitText).not.toMatch(/ExecStart=.*\b(npm|tsx)\b/);
    expect(unitValues('User')).toEqual(['mailroom']);
    expect(unitValues('UMask')).toEqual(['0007']);
    expect(unitValues('ProtectSystem')).toEqual(['strict']);
    // sudo (the reloads) needs setuid: these would silently break every reload.
    expect(unitText).not.toMatch(/^NoNewPrivileges=(yes|true|1)/m);
    expect(unitText).not.toMatch(/^CapabilityBoundingSet=/m);
  });

  it('lets the service write every file Mailroom writes in system mode, and nothing else outside its data', () => {
    const writable = unitValues('ReadWritePaths').map((p) => p.replace(/^-/, ''));
    const covered = (p: string) => writable.some((w) => p === w || p.startsWith(w + '/'));
    // Paths Mailroom only points the daemons at, or uses in local mode only (under its data folder).
    const notWritten = new Set<string>([
      MAIL_PATHS.postfixDir,
      MAIL_PATHS.postfixQueue,
      MAIL_PATHS.postfixData,
      MAIL_PATHS.dovecotRun,
      MAIL_PATHS.dovecotState,
      MAIL_PATHS.mailLog,
      MAIL_PATHS.dovecotLmtp,
      MAIL_PATHS.dovecotModules,
      MAIL_PATHS.dovecotQuotaStatus,
      BIND_SYSTEM_PATHS.pidFile,
      BIND_SYSTEM_PATHS.rndcKey,
      BIND_SYSTEM_PATHS.sessionKeyFile,
    ]);
    const written = [...pathsOf(MAIL_PATHS), ...pathsOf(BIND_SYSTEM_PATHS)].filter((p) => !notWritten.has(p));
    expect(written.length).toBeGreaterThan(15);
    expect(written.filter((p) => !covered(p))).toEqual([]);
    expect(writable.filter((w) => !/^\/(etc|var|run)\//.test(w))).toEqual([]);
  });
});

describe('deploy/sudoers', () => {
  const text = read('deploy/sudoers');

  it('is valid for visudo', () => {
    const visudo = needProgram('visudo', 'sudo');
    if (!visudo) return;
    const r = spawnSync(visudo, ['-cf', path.join(ROOT, 'deploy/sudoers')], { encoding: 'utf8' });
    expect(r.status, r.stderr + r.stdout).toBe(0);
    // And visudo does refuse a broken file (so the check above means something).
    const dir = mkdtempSync(path.join(os.tmpdir(), 'mailroom-sudoers-'));
    try {
      writeFileSync(path.join(dir, 'bad'), text.replace('NOPASSWD:', 'NOPASSWD'));
      expect(spawnSync(visudo, ['-cf', path.join(dir, 'bad')], { encoding: 'utf8' }).status).not.toBe(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('allows exactly the reload commands Mailroom runs through sudo, for the mailroom user only', () => {
    const joined = text.replace(/\\\n\s*/g, ' ');
    const alias = /^Cmnd_Alias\s+MAILROOM_RELOADS\s*=\s*(.+)$/m.exec(joined)?.[1];
    expect(alias).toBeDefined();
    const allowed = alias!.split(',').map((c) => c.trim());
    const daemons = Object.keys(SYSTEM_UNITS) as DaemonName[];
    const run = daemons.map((d) => {
      const [sudo, flag, ...cmd] = reloadCommand(d, true);
      expect([sudo, flag]).toEqual(['/usr/bin/sudo', '-n']);
      return cmd.join(' ');
    });
    // The web area's reloads (features/web/stack/apache-control.ts): Apache and the PHP-FPM pools of
    // any installed version (php[5-9].[0-9]: one digit each, nothing else matches).
    run.push(APACHE_RELOAD.join(' '), phpFpmReload('[5-9].[0-9]').join(' '));
    expect(allowed.sort()).toEqual(run.sort());
    const rules = joined
      .split('\n')
      .filter((l) => l.trim() && !l.startsWith('#') && !l.startsWith('Cmnd_Alias'));
    expect(rules).toEqual(['mailroom ALL=(root) NOPASSWD: MAILROOM_RELOADS, MAILROOM_CONTROLS']);
  });
});

describe('docs/install.md and the README', () => {
  const install = read('docs/install.md');

  it('names every file Mailroom writes or points the daemons at', () => {
    // Zone files are written per zone: the docs say db.<zone>.
    const placeholders = (p: string) => p.replace('db.<domain>', 'db.<zone>');
    const missing = [...pathsOf(MAIL_PATHS), ...pathsOf(BIND_SYSTEM_PATHS)]
      .map(placeholders)
      .filter((p) => !install.includes(p));
    expect(missing).toEqual([]);
    expect(install).toContain('backups/system-files/');
    for (const f of [
      'deploy/mailroom.service',
      'deploy/sudoers',
      'deploy/mailroom.env.example',
      'deploy/mailroom',
    ])
      expect(install).toContain(f);
  });

  it('stand on their own in a clone: no link or path outside the repository', () => {
    const docs = [
      'README.md',
      ...readdirSync(path.join(ROOT, 'docs'))
        .filter((f) => f.endsWith('.md'))
        .map((f) => `docs/${f}`),
    ];
    for (const doc of docs) {
      const text = read(doc);
      expect(text, doc).not.toMatch(/\.\.\/shared|\]\(\.\.\//);
      // Every relative link points at a file of the checkout.
      for (const m of text.matchAll(/\]\(([^)#\s]+)(#[^)]*)?\)/g)) {
        const target = m[1]!;
        if (/^[a-z]+:/.test(target)) continue;
        expect(
          existsSync(path.resolve(path.dirname(path.join(ROOT, doc)), target)),
          `${doc} → ${target}`,
        ).toBe(true);
      }
    }
  });
});
