import { spawnSync } from 'node:child_process';
import { X509Certificate } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dialects, startTestApp, type TestContext } from '../harness.ts';
import { type MailDaemons, missingMailPackages, startMailDaemons, which } from '../mail-daemons.ts';
import { freePort } from '../postgres-cluster.ts';
import { makeChain } from '../ssl-certs.ts';
import { skipLoudly } from '../skip-loudly.ts';

/**
 * Issue 22, item 8: a certificate unassigned from the mail server, or deleted, is no longer
 * served, and its key leaves the disk. With none served, Postfix (STARTTLS) and Dovecot (IMAPS)
 * serve Mailroom's own self-signed fallback for the host name, marked as such. Both daemons run
 * on the rendered files; `openssl s_client` reads what they present.
 */

const isRoot = process.getuid?.() === 0;

function skipUnlessReady(dialect: string): boolean {
  const missing = missingMailPackages(dialect);
  const reason = missing.length
    ? `Debian package(s) missing: ${missing.join(', ')}`
    : !isRoot
      ? 'not running as root (Postfix and Dovecot start as root)'
      : null;
  if (!reason) return false;
  const msg = `${reason}: the mail TLS fallback test on ${dialect} is SKIPPED`;
  skipLoudly(msg);
  it.skip(msg, () => undefined);
  return true;
}

/** The leaf's SHA-256 fingerprint a TLS server presents (null: no handshake), and what openssl said. */
function served(port: number, starttls: boolean): { fingerprint: string | null; out: string } {
  const args = ['s_client', '-connect', `127.0.0.1:${port}`, ...(starttls ? ['-starttls', 'smtp'] : [])];
  const r = spawnSync(which('openssl')!, args, { input: '', encoding: 'utf8', timeout: 20_000 });
  const m = /-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/.exec(r.stdout);
  return {
    fingerprint: m ? new X509Certificate(m[0]).fingerprint256 : null,
    out: `${r.stdout}\n${r.stderr}`,
  };
}

describe.each(dialects())('mail TLS fallback and removed keys on %s', (dialect) => {
  if (skipUnlessReady(dialect)) return;
  let t: TestContext;
  let daemons: MailDaemons | null = null;
  const ports = { smtp: 0, submission: 0, imap: 0, imaps: 0, milter: 0, dns: 0 };
  let hostname = '';
  let certA = { id: 0, fingerprint: '', keyLine: '' };
  const keyFile = () => t.deps.host.path('/etc/mailroom/tls/mail.key');
  const certFile = () => t.deps.host.path('/etc/mailroom/tls/mail.crt');

  const reload = () => {
    const root = t.deps.host.path('/');
    spawnSync(which('postfix')!, ['-c', path.join(root, 'etc/postfix'), 'reload'], { encoding: 'utf8' });
    if (daemons?.dovecot.pid) process.kill(daemons.dovecot.pid, 'SIGHUP');
    return new Promise((r) => setTimeout(r, 1500));
  };
  const both = () => ({ smtp: served(ports.smtp, true), imaps: served(ports.imaps, false) });
  const choose = async (certificateId: number | null) => {
    const put = await t.call({ method: 'PUT', url: '/api/ssl/mail-certificate', payload: { certificateId } });
    expect(put.statusCode, put.body).toBe(200);
    await reload();
    return put.json<{ servedId: number | null; fallback: { fingerprint: string } | null }>();
  };

  beforeAll(async () => {
    for (const k of Object.keys(ports) as (keyof typeof ports)[]) ports[k] = await freePort();
    t = await startTestApp(dialect, {
      env: {
        MAILROOM_SMTP_PORT: String(ports.smtp),
        MAILROOM_SUBMISSION_PORT: String(ports.submission),
        MAILROOM_IMAP_PORT: String(ports.imap),
        MAILROOM_IMAPS_PORT: String(ports.imaps),
        MAILROOM_MILTER_PORT: String(ports.milter),
        MAILROOM_DNS_PORT: String(ports.dns),
      },
    });
    const s = (await t.call({ method: 'GET', url: '/api/mail/settings' })).json();
    const saved = await t.call({
      method: 'POST',
      url: '/api/mail/settings',
      payload: {
        settings: { ...s.settings, enableSpamFilter: false, enableVirusScan: false, enableDKIM: false },
        version: s.version,
      },
    });
    expect(saved.statusCode, saved.body).toBe(200);
    hostname = s.settings.hostname;
    // A certificate for another name: "Automatic" never picks it, only a choice serves it.
    const { inter, leaf } = await makeChain(['certs-a.example.net']);
    const up = await t.call({
      method: 'POST',
      url: '/api/ssl/certificates/upload',
      payload: {
        domain: 'certs-a.example.net',
        certificateType: 'DV',
        keySize: 2048,
        certificate: leaf.pem,
        privateKey: leaf.keyPem,
        certificateChain: inter.pem,
      },
    });
    expect(up.statusCode, up.body).toBe(200);
    certA = { id: up.json().id, fingerprint: up.json().fingerprint, keyLine: leaf.keyPem.split('\n')[1]! };
    daemons = await startMailDaemons(t.deps.host.path('/'), ports);
  }, 120_000);

  afterAll(async () => {
    await daemons?.stop();
    await t?.close();
  }, 60_000);

  it('assigned: both daemons serve certificate A, its key in mail.key', async () => {
    const state = await choose(certA.id);
    expect(state.servedId).toBe(certA.id);
    const now = both();
    expect(now.smtp.fingerprint, now.smtp.out).toBe(certA.fingerprint);
    expect(now.imaps.fingerprint, now.imaps.out).toBe(certA.fingerprint);
    expect(existsSync(keyFile())).toBe(true);
  }, 60_000);

  it("unassigned: both serve Mailroom's self-signed fallback for the host name, A's files are gone", async () => {
    const state = await choose(null);
    expect(state.servedId).toBeNull();
    expect(state.fallback, 'the answer names the fallback').not.toBeNull();
    const now = both();
    expect(now.smtp.fingerprint, now.smtp.out).not.toBe(certA.fingerprint);
    expect(now.smtp.fingerprint, now.smtp.out).toBe(state.fallback?.fingerprint);
    expect(now.imaps.fingerprint, now.imaps.out).toBe(state.fallback?.fingerprint);
    // Marked as Mailroom's own, for the host name, self-signed.
    const pem = readFileSync(t.deps.host.path('/etc/mailroom/tls/fallback.crt'), 'utf8');
    expect(pem.split('\n')[0]).toMatch(/Managed by Mailroom/);
    const x = new X509Certificate(pem);
    expect(x.subject).toContain('O=Mailroom self-signed fallback');
    expect(x.subject).toContain(`CN=${hostname}`);
    expect(x.issuer).toBe(x.subject);
    expect(x.fingerprint256).toBe(state.fallback?.fingerprint);
    expect(existsSync(keyFile()), 'the unassigned certificate key stays on disk').toBe(false);
    expect(existsSync(certFile())).toBe(false);
  }, 60_000);

  it("deleted while served: the fallback is served and the deleted certificate's key file is removed", async () => {
    await choose(certA.id);
    expect(both().smtp.fingerprint).toBe(certA.fingerprint);
    expect(readFileSync(keyFile(), 'utf8')).toContain('PRIVATE KEY');
    const del = await t.call({ method: 'DELETE', url: `/api/ssl/certificates/${certA.id}?confirm=true` });
    expect(del.statusCode, del.body).toBe(200);
    await reload();
    expect(existsSync(keyFile()), 'the deleted certificate key stays in mail.key').toBe(false);
    const state = (await t.call({ method: 'GET', url: '/api/ssl/mail-certificate' })).json();
    expect(state.servedId).toBeNull();
    const now = both();
    expect(now.smtp.fingerprint, now.smtp.out).toBe(state.fallback.fingerprint);
    expect(now.imaps.fingerprint, now.imaps.out).toBe(state.fallback.fingerprint);
    // No plain copy of the key is left in the data folder (host root, backups of replaced files).
    const leftovers = spawnSync('grep', ['-rlF', '--', certA.keyLine, t.deps.config.dataDir], {
      encoding: 'utf8',
    }).stdout.trim();
    expect(leftovers).toBe('');
  }, 60_000);
});
