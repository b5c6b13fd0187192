import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import { chmodSync, existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dkimTxt } from '../../src/features/mail/domains/dkim.renderer.ts';
import {
  checkStagedRspamd,
  probePort,
  rspamdLaunchFor,
} from '../../src/features/mail/stack/mail-filter.service.ts';
import { RSPAMD_PATHS } from '../../src/features/mail/stack/rspamd.renderer.ts';
import { dialects, startTestApp, type TestContext } from '../harness.ts';
import { freePort } from '../postgres-cluster.ts';
import { dkimPython, dkimverify, refusingDns } from './dkim-verify.ts';
import { milterScan, type MilterMessage } from './milter-client.ts';
import { skipLoudly } from '../skip-loudly.ts';

// ---- what this test needs from the machine -------------------------------------------------

const BIN_DIRS = ['/usr/sbin', '/usr/bin', '/sbin', '/bin'];
const which = (cmd: string) => BIN_DIRS.map((d) => path.join(d, cmd)).find((p) => existsSync(p)) ?? null;

function missing(): string[] {
  const out: string[] = [];
  if (!which('rspamd')) out.push('rspamd');
  if (!dkimPython()) out.push('python3-dkim');
  return out;
}

const DOMAIN = 'signed.test';
const message = (from: string, overrides: Partial<MilterMessage> = {}): MilterMessage => ({
  client: { name: 'client.example.net', address: '192.0.2.25', port: 40123 },
  helo: 'client.example.net',
  from,
  rcpt: ['bob@elsewhere.example'],
  headers: [
    ['From', `Alice <${from}>`],
    ['To', 'Bob <bob@elsewhere.example>'],
    ['Subject', 'Quarterly figures'],
    ['Date', 'Sun, 22 Nov 2026 20:00:00 +0000'],
    ['Message-ID', `<${Date.now()}.${Math.random()}@${from.split('@')[1]}>`],
    ['MIME-Version', '1.0'],
    ['Content-Type', 'text/plain; charset=utf-8'],
  ],
  body: 'Hello Bob,\r\n\r\nthe figures are attached in spirit.\r\n\r\nAlice\r\n',
  ...overrides,
});

describe.each(dialects())('rspamd from the rendered files on %s', (dialect) => {
  const lacking = missing();
  if (lacking.length) {
    const msg = `Debian package(s) missing: ${lacking.join(', ')}: mail filter (rspamd, DKIM) integration test on ${dialect} is SKIPPED`;
    skipLoudly(msg);
    it.skip(msg, () => undefined);
    return;
  }

  let t: TestContext;
  let milterPort: number;
  let dns: Awaited<ReturnType<typeof refusingDns>>;
  let rspamd: ChildProcess | null = null;
  let rspamdLog = '';
  let txt: string;

  const stopRspamd = async () => {
    const p = rspamd;
    rspamd = null;
    if (!p || p.exitCode !== null) return;
    const exited = new Promise((r) => p.once('exit', r));
    p.kill('SIGTERM');
    await Promise.race([exited, new Promise((r) => setTimeout(r, 10_000))]);
    if (p.exitCode === null) p.kill('SIGKILL');
  };

  beforeAll(async () => {
    milterPort = await freePort();
    const dnsPort = await freePort();
    dns = await refusingDns(dnsPort);
    t = await startTestApp(dialect, {
      env: { MAILROOM_MILTER_PORT: String(milterPort), MAILROOM_DNS_PORT: String(dnsPort) },
    });
    await t.app.ready();
    const add = await t.call({
      method: 'POST',
      url: '/api/mail/users/add',
      payload: { createDomain: true, email: `alice@${DOMAIN}`, password: 'password-alice' },
    });
    expect(add.statusCode).toBe(200);
    // The settings read waits for the files rendered at start; the domain's key exists by now.
    expect((await t.call({ method: 'GET', url: '/api/mail/settings' })).statusCode).toBe(200);
    const records = (await t.call({ method: 'GET', url: '/api/mail/dkim' })).json<
      { name: string; txt: string }[]
    >();
    const rec = records.find((r) => r.name === `mail._domainkey.${DOMAIN}`);
    expect(rec).toBeDefined();
    txt = rec!.txt;

    const launch = await rspamdLaunchFor(t.deps.host);
    expect(launch).not.toBeNull();
    // rspamd's workers run as _rspamd: as root, a data folder it cannot enter is named, not ignored
    // (the app's own local-mode setup opened it at start: close it again to see the refusal).
    if (process.getuid?.() === 0) {
      chmodSync(t.dataDir, 0o700);
      await expect(launch!.prepare()).rejects.toThrow(`chmod o+x ${t.dataDir}`);
    }
    chmodSync(t.dataDir, 0o755);
    await launch!.prepare();
    const child = spawn(launch!.command, launch!.args, { stdio: ['ignore', 'pipe', 'pipe'] });
    rspamd = child;
    child.stdout?.on('data', (d: Buffer) => (rspamdLog += d.toString()));
    child.stderr?.on('data', (d: Buffer) => (rspamdLog += d.toString()));
    const deadline = Date.now() + 90_000;
    while (!(await probePort(milterPort))) {
      if (child.exitCode !== null || Date.now() > deadline)
        throw new Error(`rspamd did not start (exit ${child.exitCode}):\n${rspamdLog.slice(-4000)}`);
      await new Promise((r) => setTimeout(r, 250));
    }
  }, 150_000);

  afterAll(async () => {
    await stopRspamd();
    dns?.close();
    await t?.close();
  }, 30_000);

  it('proves the rendered filter files with rspamadm configtest, and refuses a broken one', async () => {
    const proxy = t.deps.host.path(RSPAMD_PATHS.proxy);
    const good = readFileSync(proxy, 'utf8');
    const ok = await checkStagedRspamd(t.deps.host, [{ target: proxy, staged: proxy, content: good }]);
    expect(ok).toEqual({ ok: true, output: 'rspamadm configtest: filter files parsed' });
    const bad = await checkStagedRspamd(t.deps.host, [
      { target: proxy, staged: proxy, content: `${good}upstream "local" {\n` },
    ]);
    expect(bad?.ok).toBe(false);
  }, 120_000);

  it('keeps the private key only in a file the signer owns, never in the database', async () => {
    const keyFile = t.deps.host.path(RSPAMD_PATHS.dkimKey(DOMAIN, 'mail'));
    const st = statSync(keyFile);
    expect(readFileSync(keyFile, 'utf8')).toContain('PRIVATE KEY');
    if (process.getuid?.() === 0) {
      const uid = Number(spawnSync('id', ['-u', '_rspamd'], { encoding: 'utf8' }).stdout.trim());
      expect(st.uid).toBe(uid);
      expect(st.mode & 0o777).toBe(0o600);
    } else expect(st.mode & 0o077 & ~0o040).toBe(0);
    const rows = await t.deps.database.db.selectFrom('dkim_keys').select(['domain', 'private_key']).execute();
    expect(rows.map((r) => r.domain)).toContain(DOMAIN);
    for (const r of rows) expect(r.private_key).toBe('');
  });

  it('signs mail from an authenticated sender of a DKIM domain, and dkimverify accepts it with the published key', async () => {
    const r = await milterScan(milterPort, message(`alice@${DOMAIN}`, { authUser: `alice@${DOMAIN}` }));
    expect(r.action.kind).toBe('accept');
    const sig = [...r.inserted, ...r.added].find((h) => h.name.toLowerCase() === 'dkim-signature');
    if (!sig) {
      const read = (p: string) => readFileSync(t.deps.host.path(p), 'utf8');
      throw new Error(
        `not signed; maps:\n${read(RSPAMD_PATHS.dkimSelectors)}${read(RSPAMD_PATHS.dkimPaths)}${read(RSPAMD_PATHS.dkimSigning)}\nlog:\n${read(
          '/var/log/rspamd/rspamd.log',
        )
          .split('\n')
          .filter((l) => /proxy|normal|controller/i.test(l))
          .slice(-30)
          .join('\n')}`,
      );
    }
    expect(sig?.value).toMatch(new RegExp(`d=${DOMAIN.replace('.', '\\.')};\\s*s=mail;`));
    const good = dkimverify(r.message, { [`mail._domainkey.${DOMAIN}`]: txt });
    expect(good.out).toBe('signature ok');
    expect(good.ok).toBe(true);
    // The verifier can fail: another key, or a changed body, does not pass.
    const other = generateKeyPairSync('rsa', {
      modulusLength: 2048,
      publicKeyEncoding: { type: 'spki', format: 'pem' },
      privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
    });
    const otherKey = dkimverify(r.message, { [`mail._domainkey.${DOMAIN}`]: dkimTxt(other.publicKey) });
    expect(otherKey.ok).toBe(false);
    const tampered = dkimverify(r.message.replace('figures are', 'numbers are'), {
      [`mail._domainkey.${DOMAIN}`]: txt,
    });
    expect(tampered.ok).toBe(false);
    // rspamd asked only the name server Mailroom gave it.
    expect(dns.queries()).toBeGreaterThan(0);
  }, 60_000);

  it('does not sign a spoofed sender from outside, nor a domain without a key', async () => {
    const spoofed = await milterScan(milterPort, message(`alice@${DOMAIN}`));
    expect(spoofed.action.kind).not.toBe('tempfail');
    expect([...spoofed.inserted, ...spoofed.added].map((h) => h.name.toLowerCase())).not.toContain(
      'dkim-signature',
    );
    const foreign = await milterScan(
      milterPort,
      message('carol@unhosted.example', { authUser: `alice@${DOMAIN}` }),
    );
    expect([...foreign.inserted, ...foreign.added].map((h) => h.name.toLowerCase())).not.toContain(
      'dkim-signature',
    );
  }, 60_000);

  it('reports the filter running in Settings Status and on the dashboard, and stopped once it is', async () => {
    const up = (await t.call({ method: 'GET', url: '/api/mail/settings' })).json();
    expect(up.filter.state).toBe('running');
    expect(up.filter.virusScan.detail).toMatch(/ClamAV/);
    const dash = (await t.call({ method: 'GET', url: '/api/mail/dashboard' })).json();
    expect(dash.services).toContainEqual({ name: 'rspamd', running: true });
    await stopRspamd();
    const down = (await t.call({ method: 'GET', url: '/api/mail/settings' })).json();
    expect(down.filter.state).toBe('stopped');
    expect(down.filter.detail).toContain(`127.0.0.1:${milterPort}`);
    const dash2 = (await t.call({ method: 'GET', url: '/api/mail/dashboard' })).json();
    expect(dash2.services).toContainEqual({ name: 'rspamd', running: false });
    expect(dash2.serverStatus).toBe('offline');
  }, 30_000);
});
