import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, lstatSync, readdirSync, readFileSync, statSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import type { Job } from '@mailroom/contract/jobs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LocalServices } from '../../src/host/local-services.ts';
import { ADMIN, startTestApp, type TestContext } from '../harness.ts';
import { ownNsZoneForm } from '../dns-zone-form.ts';
import { eventually } from '../eventually.ts';
import { freeTcpUdpPort } from '../free-udp-port.ts';
import { readInbox, sendMail, waitForMessage } from '../mail-clients.ts';
import { missingMailPackages, which } from '../mail-daemons.ts';
import { skipLoudly } from '../skip-loudly.ts';

/**
 * A restore over the RUNNING local-mode stack (issue 22, items 1-4): Mailroom's supervisor runs
 * Postfix, Dovecot and named from the rendered files on loopback ports; a backup is made; mail
 * arrives, a DNS record is removed and another added, a session signs out and another signs in;
 * then the backup is restored while everything runs. Afterwards mail must flow (SMTP in, IMAP out
 * from a Maildir the mail user still owns), a Postfix restart must work, named must serve the
 * restored zone, the signed-out session must stay signed out and the newer one be ended (the
 * requester's stays), and the log lines written between backup and restore must still be there.
 */

const missing = [
  ...missingMailPackages('sqlite'),
  !which('named') ? 'bind9' : '',
  !which('dig') ? 'bind9-dnsutils' : '',
].filter(Boolean);
const reason = missing.length
  ? `Debian package(s) missing: ${missing.join(', ')}`
  : process.getuid?.() !== 0
    ? 'not running as root (Mailroom only runs the daemons as root)'
    : null;
if (reason) skipLoudly(`${reason}: the restore over a running stack is SKIPPED`);

const FAST = { heartbeatMs: 50, persistMs: 20, pollMs: 50, staleMs: 5000 };
const PORT_VARS = {
  smtp: 'MAILROOM_SMTP_PORT',
  submission: 'MAILROOM_SUBMISSION_PORT',
  imap: 'MAILROOM_IMAP_PORT',
  imaps: 'MAILROOM_IMAPS_PORT',
  dns: 'MAILROOM_DNS_PORT',
  milter: 'MAILROOM_MILTER_PORT',
} as const;
type Ports = Record<keyof typeof PORT_VARS, number>;

const MAIL_DOMAIN = 'restore-mail.test';
const ZONE = 'restore-dns.test';
const AMY = { email: `amy@${MAIL_DOMAIN}`, password: 'amy-mailbox-secret-1' };

function greeting(port: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const sock = net.connect(port, '127.0.0.1');
    let buf = '';
    sock.setTimeout(5000, () => {
      sock.destroy();
      reject(new Error(`no greeting on ${port}`));
    });
    sock.on('data', (d: Buffer) => {
      buf += d.toString();
      if (buf.includes('\n')) {
        sock.destroy();
        resolve(buf.split('\n')[0]?.trim() ?? '');
      }
    });
    sock.on('error', reject);
  });
}

/** `p`, or an error naming `what` after `ms` (a client left waiting for a greeting waits for ever). */
const within = <T>(ms: number, what: string, p: Promise<T>): Promise<T> =>
  Promise.race([
    p,
    new Promise<T>((_r, reject) =>
      setTimeout(() => reject(new Error(`${what}: no answer in ${ms / 1000} s`)), ms).unref(),
    ),
  ]);

const idOf = (flag: '-u' | '-g', name: string) =>
  Number(spawnSync('id', [flag, name], { encoding: 'utf8' }).stdout.trim());

/** Every entry below `dir` (files and folders), with its owner. */
function tree(dir: string): { path: string; uid: number; gid: number; mode: number }[] {
  const out: { path: string; uid: number; gid: number; mode: number }[] = [];
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      const st = lstatSync(p);
      out.push({ path: p, uid: st.uid, gid: st.gid, mode: st.mode & 0o7777 });
      if (e.isDirectory()) walk(p);
    }
  };
  walk(dir);
  return out;
}

describe.skipIf(reason !== null)('a restore over the running local-mode stack', () => {
  let t: TestContext;
  let services: LocalServices;
  let ports: Ports;
  let backupId = 0;
  let restored: Job;
  /** Signed in before the backup, signed out after it. */
  let signedOut = '';
  /** Signed in after the backup. */
  let newer = '';
  let lateMessageId = '';
  let namedLog = { ino: 0, size: 0, text: '' };
  let ownersBefore: Map<string, { uid: number; gid: number; mode: number }>;
  const at = (p: string) => t.deps.host.path(p);
  const namedLogFile = () => at('/var/cache/bind/mailroom-named.log');
  const api = async (
    method: 'GET' | 'POST' | 'PUT' | 'DELETE',
    url: string,
    payload?: object,
    key?: string,
  ) => {
    const res = await t.app.inject({
      method,
      url,
      ...(payload ? { payload } : {}),
      headers: { authorization: `Bearer ${key ?? t.token}` },
    });
    return res;
  };
  const waitJob = async (id: number): Promise<Job> =>
    eventually(
      `job ${id}`,
      async () => (await api('GET', `/api/jobs/${id}`)).json<Job>(),
      (j) => !['queued', 'running'].includes(j.state),
      240_000,
    );
  const dig = (name: string) => {
    const r = spawnSync(
      which('dig')!,
      ['@127.0.0.1', '-p', String(ports.dns), '+short', '+time=2', '+tries=2', name, 'A'],
      { encoding: 'utf8' },
    );
    return r.stdout.trim();
  };
  const signIn = async () => {
    const res = await t.app.inject({ method: 'POST', url: '/auth/login', payload: ADMIN });
    expect(res.statusCode, res.body).toBe(200);
    return res.json<{ api_key: string }>().api_key;
  };
  const sendTo = async (subject: string) => {
    const sent = await sendMail(ports.smtp, { from: 'someone@example.net', to: [AMY.email], subject });
    expect(sent.data?.code, JSON.stringify(sent)).toBe(250);
  };

  beforeAll(async () => {
    ports = {} as Ports;
    const taken = new Set<number>();
    for (const k of Object.keys(PORT_VARS) as (keyof Ports)[]) {
      let port = await freeTcpUdpPort();
      while (taken.has(port)) port = await freeTcpUdpPort();
      taken.add(port);
      ports[k] = port;
    }
    t = await startTestApp('sqlite', {
      jobs: FAST,
      env: Object.fromEntries(
        Object.entries(PORT_VARS).map(([k, v]) => [v, String(ports[k as keyof Ports])]),
      ),
      services: async (host, config) => {
        // The daemons' users (vmail, postfix, bind) must pass the test's mkdtemp folder (0700).
        chmodSync(path.dirname(host.root), 0o755);
        services = await LocalServices.create(host, config, {
          // rspamd takes half a minute to start; the filter is off here (mail-flow proves it).
          only: ['postfix', 'dovecot', 'named'],
          backoffMs: 300,
          maxCrashes: 3,
          readyTimeoutMs: 60_000,
          stopTimeoutMs: 15_000,
        });
        return services;
      },
    });
    const current = (await api('GET', '/api/mail/settings')).json();
    const saved = await api('POST', '/api/mail/settings', {
      settings: { ...current.settings, enableSpamFilter: false, enableDKIM: false, enableVirusScan: false },
      version: current.version,
    });
    expect(saved.statusCode, saved.body).toBe(200);
    const mb = await api('POST', '/api/mail/users/add', { createDomain: true, ...AMY, quota: 0 });
    expect(mb.statusCode, mb.body).toBe(200);
    expect((await api('POST', '/api/dns/zones/add', ownNsZoneForm(ZONE))).statusCode).toBe(200);
    const www = await api('POST', `/api/dns/zones/${ZONE}/records`, {
      qname: 'www',
      rtype: 'A',
      value: '192.0.2.10',
      ttl: 300,
    });
    expect(www.statusCode, www.body).toBe(200);
    await services.start(30_000);
    for (const s of await services.states()) expect(s.state, `${s.name}: ${s.detail}`).toBe('running');
    await eventually(
      'the zone served',
      async () => dig(`www.${ZONE}`),
      (a) => a === '192.0.2.10',
    );
  }, 240_000);

  afterAll(async () => {
    await services?.close();
    await t?.close();
  }, 60_000);

  it('runs, is backed up, then changes: new mail, a DNS record removed and one added, a session out and one in', async () => {
    await sendTo('Before the backup');
    await waitForMessage(ports.imap, AMY.email, AMY.password, 'Before the backup', 30_000);
    signedOut = await signIn();

    const start = await api('POST', '/api/backup/start', { type: 'full' });
    expect(start.statusCode, start.body).toBe(202);
    const job = await waitJob(start.json<{ jobId: number }>().jobId);
    expect(job.state, job.message ?? '').toBe('succeeded');
    backupId = (job.result as { backupId: number }).backupId;

    // After the backup.
    expect((await api('POST', '/auth/logout', undefined, signedOut)).statusCode).toBe(200);
    expect((await api('GET', '/api/system/services', undefined, signedOut)).statusCode).toBe(401);
    newer = await signIn();
    expect((await api('GET', '/api/system/services', undefined, newer)).statusCode).toBe(200);
    expect((await api('DELETE', `/api/dns/zones/${ZONE}/records/www/A`)).statusCode).toBe(200);
    const added = await api('POST', `/api/dns/zones/${ZONE}/records`, {
      qname: 'late',
      rtype: 'A',
      value: '192.0.2.77',
      ttl: 300,
    });
    expect(added.statusCode, added.body).toBe(200);
    await eventually(
      'the zone changed',
      async () => dig(`late.${ZONE}`),
      (a) => a === '192.0.2.77',
    );
    expect(dig(`www.${ZONE}`)).toBe('');
    await sendTo('After the backup');
    const late = await waitForMessage(ports.imap, AMY.email, AMY.password, 'After the backup', 30_000);
    lateMessageId = /Message-ID: <([^>]+)>/i.exec(late)![1]!;
    // Postfix logged the late message (postlogd writes mail.log); named logged its reload.
    await eventually(
      'the late message in mail.log',
      async () => readFileSync(at('/var/log/mail.log'), 'utf8'),
      (log) => log.includes(lateMessageId),
    );
    const st = statSync(namedLogFile());
    namedLog = { ino: st.ino, size: st.size, text: readFileSync(namedLogFile(), 'utf8') };
    expect(namedLog.size).toBeGreaterThan(0);
    ownersBefore = new Map(tree(at('/var/vmail')).map((e) => [e.path, e]));
  }, 180_000);

  it('restores over the running stack; the job says what it really did', async () => {
    expect(backupId).toBeGreaterThan(0);
    const res = await api('POST', `/api/backups/${backupId}/restore`);
    expect(res.statusCode, res.body).toBe(202);
    restored = await waitJob(res.json<{ jobId: number }>().jobId);
    expect(restored.state, restored.message ?? '').toBe('succeeded');
    const message = restored.message ?? '';
    // The zone file went back: named was really reloaded (today: "applied and reloaded" with
    // "No file had to change", named never told).
    expect(message).toMatch(/reloaded: [^;]*named/);
    expect(message).toContain('stopped and started again: postfix, dovecot');
    expect(message).not.toContain('NOT live');
    expect(message).not.toContain('applied and reloaded');
  }, 300_000);

  it('leaves the runtime state alone: sockets, pid files and the master lock are there, owned as before', () => {
    const kind = (p: string) => {
      const st = lstatSync(p);
      return st.isSocket() ? 'socket' : st.isFIFO() ? 'fifo' : st.isFile() ? 'file' : 'other';
    };
    expect(kind(at('/var/spool/postfix/private/dovecot-lmtp'))).toBe('socket');
    expect(kind(at('/var/spool/postfix/public/pickup'))).toBe('socket');
    expect(existsSync(at('/var/spool/postfix/pid/master.pid'))).toBe(true);
    expect(existsSync(at('/run/dovecot/master.pid'))).toBe(true);
    const lock = statSync(at('/var/lib/postfix/master.lock'));
    expect(lock.uid, 'master.lock owner').toBe(idOf('-u', 'postfix'));
  });

  it("puts the Maildirs back as they were archived: the mail user's, with their modes", () => {
    const vmail = idOf('-u', 'vmail');
    const entries = tree(at('/var/vmail'));
    expect(entries.length).toBeGreaterThan(3);
    const wrong = entries.filter((e) => e.uid !== vmail);
    expect(wrong.map((e) => `${e.path} uid ${e.uid}`)).toEqual([]);
    for (const e of entries) {
      const before = ownersBefore.get(e.path);
      if (before)
        expect({ path: e.path, mode: e.mode.toString(8) }).toEqual({
          path: e.path,
          mode: before.mode.toString(8),
        });
    }
  });

  it('ends with mail flowing: the services screen says running and it is, SMTP accepts, IMAP reads it', async () => {
    const screen = (await within(20_000, 'the services screen', api('GET', '/api/system/services'))).json<{
      services: { id: string; name: string; status: string }[];
    }>();
    const shown = (name: string) =>
      screen.services.find((x) => x.id === name || x.name.toLowerCase().includes(name))?.status;
    // What the screen says is what a client finds.
    const smtp = await within(10_000, 'SMTP greeting', greeting(ports.smtp)).catch(
      (err: Error) => err.message,
    );
    const imap = await within(10_000, 'IMAP greeting', greeting(ports.imap)).catch(
      (err: Error) => err.message,
    );
    expect({ postfix: shown('postfix'), smtp }).toEqual({
      postfix: 'running',
      smtp: expect.stringMatching(/^220 /),
    });
    expect({ dovecot: shown('dovecot'), imap }).toEqual({
      dovecot: 'running',
      imap: expect.stringMatching(/^\* OK/),
    });
    expect(shown('named')).toBe('running');
    for (const s of await services.states()) expect(s.state, `${s.name}: ${s.detail}`).toBe('running');
    await within(30_000, 'SMTP to accept a message', sendTo('After the restore'));
    await within(
      40_000,
      'IMAP to read the new message',
      waitForMessage(ports.imap, AMY.email, AMY.password, 'After the restore', 30_000),
    );
    const inbox = await within(
      20_000,
      'IMAP to read the inbox',
      readInbox(ports.imap, AMY.email, AMY.password),
    );
    // The mail of the backup is back; the one that came after it went with the restore.
    expect(inbox.some((m) => m.includes('Before the backup'))).toBe(true);
    expect(inbox.some((m) => m.includes('After the backup'))).toBe(false);
  }, 240_000);

  it('a Postfix restart still works after the restore', async () => {
    const r = await within(60_000, 'postfix restart', services.control('postfix', 'restart'));
    expect(r, r.output).toMatchObject({ ok: true, attempted: true });
    expect(await greeting(ports.smtp)).toMatch(/^220 /);
    await within(30_000, 'SMTP after the restart', sendTo('After the Postfix restart'));
    await within(
      40_000,
      'IMAP to read the message',
      waitForMessage(ports.imap, AMY.email, AMY.password, 'After the Postfix restart', 30_000),
    );
  }, 120_000);

  it('named serves the restored zone: the record of the backup answers, the later one is gone', async () => {
    await eventually(
      'the restored record',
      async () => dig(`www.${ZONE}`),
      (a) => a === '192.0.2.10',
    );
    expect(dig(`late.${ZONE}`)).toBe('');
  });

  it('ends every session but the requester’s: the one signed out stays out, the newer one is ended', async () => {
    expect((await api('GET', '/api/system/services', undefined, signedOut)).statusCode).toBe(401);
    expect((await api('GET', '/api/system/services', undefined, newer)).statusCode).toBe(401);
    expect((await api('GET', '/api/system/services')).statusCode).toBe(200);
  });

  it('never rewinds the logs: the lines written between backup and restore are still in the live files', async () => {
    expect(readFileSync(at('/var/log/mail.log'), 'utf8')).toContain(lateMessageId);
    // named keeps writing to the live file: the same file, grown by the restore's reload.
    const st = statSync(namedLogFile());
    expect(st.ino).toBe(namedLog.ino);
    const text = readFileSync(namedLogFile(), 'utf8');
    expect(text.startsWith(namedLog.text)).toBe(true);
    expect(st.size).toBeGreaterThan(namedLog.size);
  });
});
