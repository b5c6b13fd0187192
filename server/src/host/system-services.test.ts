import { describe, expect, it } from 'vitest';
import type { RunResult } from './host.ts';
import type { ProcessInfo } from './processes.ts';
import {
  parseSystemctlShow,
  parseSystemdTimestamp,
  reloadCommand,
  SystemServiceControl,
} from './system-services.ts';

// What systemd 252 (Debian 12) prints for
//   systemctl show --timestamp=unix -p Id,LoadState,ActiveState,SubState,Result,MainPID,ExecMainStartTimestamp \
//     postfix@-.service dovecot.service rspamd.service named.service
// Properties come in systemd's own order, one block per unit, separated by an empty line.
const SHOW_OUTPUT = `MainPID=0
Result=success
ExecMainStartTimestamp=@1763836682
Id=postfix@-.service
LoadState=loaded
ActiveState=active
SubState=running

MainPID=1234
Result=success
ExecMainStartTimestamp=@1763836690
Id=dovecot.service
LoadState=loaded
ActiveState=active
SubState=running

MainPID=0
Result=success
ExecMainStartTimestamp=
Id=rspamd.service
LoadState=not-found
ActiveState=inactive
SubState=dead

MainPID=0
Result=exit-code
ExecMainStartTimestamp=@1763836700
Id=named.service
LoadState=loaded
ActiveState=failed
SubState=failed
`;

interface Call {
  cmd: string;
  args: string[];
}

function fakeRunner(answer: (c: Call) => RunResult) {
  const calls: Call[] = [];
  return {
    calls,
    run: (cmd: string, args: string[]) => {
      const c = { cmd, args };
      calls.push(c);
      return Promise.resolve(answer(c));
    },
  };
}

const ok = (stdout = ''): RunResult => ({ code: 0, stdout, stderr: '' });
const procs: ProcessInfo[] = [
  { pid: 900, name: 'master', cmdline: '/usr/lib/postfix/sbin/master -w' },
  { pid: 50, name: 'master', cmdline: '/usr/sbin/some-other-master' },
];

describe('systemctl show parsing', () => {
  it('splits blocks and reads key=value lines (values may contain =)', () => {
    const blocks = parseSystemctlShow(SHOW_OUTPUT + '\nEnvironment=A=1 B=2\n');
    expect(blocks).toHaveLength(5);
    expect(blocks[1]).toMatchObject({ Id: 'dovecot.service', MainPID: '1234', ActiveState: 'active' });
    expect(blocks[4]).toEqual({ Environment: 'A=1 B=2' });
  });

  it('reads unix and UTC timestamps, and nothing else', () => {
    expect(parseSystemdTimestamp('@1763836682')).toBe('2025-11-22T18:38:02.000Z');
    expect(parseSystemdTimestamp('Sat 2025-11-22 18:38:02 UTC')).toBe('2025-11-22T18:38:02.000Z');
    expect(parseSystemdTimestamp('')).toBeNull();
    expect(parseSystemdTimestamp('n/a')).toBeNull();
    expect(parseSystemdTimestamp('Sat 2025-11-22 19:38:02 CET')).toBeNull();
  });
});

describe('SystemServiceControl.states', () => {
  it('asks systemd once for the four units and maps each state', async () => {
    const r = fakeRunner(() => ok(SHOW_OUTPUT));
    const control = new SystemServiceControl({
      run: r.run,
      sudo: true,
      listProcesses: () => Promise.resolve(procs),
    });
    const states = await control.states();
    expect(r.calls).toEqual([
      {
        cmd: 'systemctl',
        args: [
          'show',
          '--timestamp=unix',
          '-p',
          'Id,LoadState,ActiveState,SubState,Result,MainPID,ExecMainStartTimestamp',
          'postfix@-.service',
          'dovecot.service',
          'rspamd.service',
          'named.service',
        ],
      },
    ]);
    const byName = Object.fromEntries(states.map((s) => [s.name, s]));
    // postfix@-.service has no main pid (forking, no pid file): the master process is found in /proc.
    expect(byName.postfix).toMatchObject({ state: 'running', pid: 900, since: '2025-11-22T18:38:02.000Z' });
    expect(byName.dovecot).toMatchObject({ state: 'running', pid: 1234, since: '2025-11-22T18:38:10.000Z' });
    expect(byName.rspamd).toMatchObject({ state: 'not-installed', pid: null });
    expect(byName.rspamd!.detail).toContain('rspamd');
    expect(byName.named).toMatchObject({ state: 'failed', pid: null, since: null });
    expect(byName.named!.detail).toContain('exit-code');
    expect(byName.named!.detail).toContain('journalctl -u named.service');
  });

  it('falls back to the process table when systemd does not answer', async () => {
    const r = fakeRunner(() => ({
      code: 1,
      stdout: '',
      stderr: "System has not been booted with systemd as init system (PID 1). Can't operate.",
    }));
    const control = new SystemServiceControl({
      run: r.run,
      sudo: false,
      listProcesses: () => Promise.resolve(procs),
    });
    const states = await control.states();
    expect(states.map((s) => [s.name, s.state, s.pid])).toEqual([
      ['postfix', 'running', 900],
      ['dovecot', 'stopped', null],
      ['rspamd', 'stopped', null],
      ['named', 'stopped', null],
    ]);
    expect(states[1]!.detail).toContain('has not been booted with systemd');
  });
});

describe('SystemServiceControl.reload', () => {
  const active = 'LoadState=loaded\nActiveState=active\n';

  it('reloads through sudo -n systemctl reload <unit> when not root', async () => {
    const r = fakeRunner((c) => (c.args[0] === 'show' ? ok(active) : ok()));
    const control = new SystemServiceControl({ run: r.run, sudo: true });
    const result = await control.reload('postfix');
    expect(result).toMatchObject({ ok: true, attempted: true });
    expect(r.calls).toEqual([
      { cmd: 'systemctl', args: ['show', '-p', 'LoadState,ActiveState', 'postfix@-.service'] },
      { cmd: '/usr/bin/sudo', args: ['-n', '/usr/bin/systemctl', 'reload', 'postfix.service'] },
    ]);
  });

  it('runs systemctl directly as root', async () => {
    const r = fakeRunner((c) => (c.args[0] === 'show' ? ok(active) : ok()));
    const control = new SystemServiceControl({ run: r.run, sudo: false });
    await control.reload('dovecot');
    expect(r.calls[1]).toEqual({ cmd: 'systemctl', args: ['reload', 'dovecot.service'] });
  });

  it('says plainly when sudo refuses, naming the sudoers file', async () => {
    const r = fakeRunner((c) =>
      c.cmd === '/usr/bin/sudo'
        ? { code: 1, stdout: '', stderr: 'sudo: a password is required\n' }
        : ok(active),
    );
    const result = await new SystemServiceControl({ run: r.run, sudo: true }).reload('rspamd');
    expect(result.ok).toBe(false);
    expect(result.attempted).toBe(true);
    expect(result.output).toContain('a password is required');
    expect(result.output).toContain('/etc/sudoers.d/mailroom');
  });

  it('skips a daemon that is stopped or not installed, without calling sudo', async () => {
    for (const [shown, words] of [
      ['LoadState=loaded\nActiveState=inactive\n', 'systemctl start dovecot.service'],
      ['LoadState=not-found\nActiveState=inactive\n', 'dovecot-core'],
    ] as const) {
      const r = fakeRunner(() => ok(shown));
      const result = await new SystemServiceControl({ run: r.run, sudo: true }).reload('dovecot');
      expect(result).toMatchObject({ ok: true, attempted: false });
      expect(result.output).toContain(words);
      expect(r.calls).toHaveLength(1);
    }
  });

  it('reloads named zone by zone with rndc, and refuses what is not a zone name', async () => {
    const r = fakeRunner(() => ok('zone reload queued'));
    const control = new SystemServiceControl({ run: r.run, sudo: true });
    const result = await control.reload('named', { zones: ['example.com', 'example.org'] });
    expect(result).toMatchObject({ ok: true, attempted: true });
    expect(r.calls).toEqual([
      { cmd: '/usr/sbin/rndc', args: ['reload', 'example.com'] },
      { cmd: '/usr/sbin/rndc', args: ['reload', 'example.org'] },
    ]);
    const refused = await control.reload('named', { zones: ['-p'] });
    expect(refused.ok).toBe(false);
    expect(r.calls).toHaveLength(2);
    await control.reload('named', { reconfig: true });
    expect(r.calls[2]).toEqual({ cmd: '/usr/sbin/rndc', args: ['reconfig'] });
    await control.reload('named', { reconfig: true, zones: ['example.net'] });
    expect(r.calls.slice(3)).toEqual([
      { cmd: '/usr/sbin/rndc', args: ['reconfig'] },
      { cmd: '/usr/sbin/rndc', args: ['reload', 'example.net'] },
    ]);
  });

  it('leaves the daemons alone when reloads are off', async () => {
    const r = fakeRunner(() => ok(active));
    const result = await new SystemServiceControl({ run: r.run, sudo: true, reloads: false }).reload(
      'postfix',
    );
    expect(result).toMatchObject({ ok: true, attempted: false });
    expect(result.output).toContain('MAILROOM_RELOAD=0');
    expect(r.calls).toEqual([]);
  });

  it('builds only the commands deploy/sudoers allows', () => {
    expect(reloadCommand('named', true)).toEqual([
      '/usr/bin/sudo',
      '-n',
      '/usr/bin/systemctl',
      'reload',
      'named.service',
    ]);
  });
});
