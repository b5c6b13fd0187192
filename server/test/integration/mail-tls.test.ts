import { spawnSync } from 'node:child_process';
import { X509Certificate } from 'node:crypto';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dialects, startTestApp, type TestContext } from '../harness.ts';
import { type MailDaemons, missingMailPackages, startMailDaemons, which } from '../mail-daemons.ts';
import { freePort } from '../postgres-cluster.ts';
import { makeChain } from '../ssl-certs.ts';
import { skipLoudly } from '../skip-loudly.ts';

/**
 * The certificate Mailroom stores is the one Postfix (STARTTLS on SMTP) and Dovecot (IMAPS) serve:
 * both daemons run on the files Mailroom rendered, unedited, on free loopback ports, and
 * `openssl s_client` reads what they present. The SSL settings' protocol floor reaches both.
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
  const msg = `${reason}: the mail TLS test on ${dialect} is SKIPPED`;
  skipLoudly(msg);
  it.skip(msg, () => undefined);
  return true;
}

/** What a TLS server presents: the leaf's SHA-256 fingerprint, or null when the handshake failed. */
function served(
  port: number,
  starttls: boolean,
  extra: string[] = [],
): { fingerprint: string | null; out: string } {
  const args = [
    's_client',
    '-connect',
    `127.0.0.1:${port}`,
    ...(starttls ? ['-starttls', 'smtp'] : []),
    ...extra,
  ];
  const r = spawnSync(which('openssl')!, args, { input: '', encoding: 'utf8', timeout: 20_000 });
  const m = /-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/.exec(r.stdout);
  return {
    fingerprint: m ? new X509Certificate(m[0]).fingerprint256 : null,
    out: `${r.stdout}\n${r.stderr}`,
  };
}

describe.each(dialects())('mail TLS serves the stored certificate on %s', (dialect) => {
  if (skipUnlessReady(dialect)) return;
  let t: TestContext;
  let daemons: MailDaemons | null = null;
  const ports = { smtp: 0, submission: 0, imap: 0, imaps: 0, milter: 0, dns: 0 };
  let hostname = '';

  const reload = () => {
    const root = t.deps.host.path('/');
    spawnSync(which('postfix')!, ['-c', path.join(root, 'etc/postfix'), 'reload'], { encoding: 'utf8' });
    if (daemons?.dovecot.pid) process.kill(daemons.dovecot.pid, 'SIGHUP');
    return new Promise((r) => setTimeout(r, 1500));
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
    // No mail filter here (no milter to start): TLS is what this test is about.
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
  }, 120_000);

  afterAll(async () => {
    await daemons?.stop();
    await t?.close();
  }, 60_000);

  it('Postfix STARTTLS and Dovecot IMAPS present the uploaded certificate for the host name', async () => {
    const { inter, leaf } = await makeChain([hostname]);
    const up = await t.call({
      method: 'POST',
      url: '/api/ssl/certificates/upload',
      payload: {
        domain: hostname,
        certificateType: 'DV',
        keySize: 2048,
        certificate: leaf.pem,
        privateKey: leaf.keyPem,
        certificateChain: inter.pem,
      },
    });
    expect(up.statusCode, up.body).toBe(200);
    expect(up.json().inUse).toEqual(['mail server']);
    const stored = up.json().fingerprint as string;
    daemons = await startMailDaemons(t.deps.host.path('/'), ports);
    const smtp = served(ports.smtp, true);
    expect(smtp.fingerprint, smtp.out).toBe(stored);
    const imaps = served(ports.imaps, false);
    expect(imaps.fingerprint, imaps.out).toBe(stored);
    // The chain goes out with the leaf.
    expect(served(ports.smtp, true, ['-showcerts']).out).toContain('Test Issuing CA');
  }, 120_000);

  it('choosing another certificate and the TLS floor from the SSL settings reach both daemons', async () => {
    const gen = await t.call({
      method: 'POST',
      url: '/api/ssl/certificates/generate',
      payload: {
        domain: hostname,
        certificateType: 'DV',
        keyAlgorithm: 'RSA',
        keySize: 2048,
        signatureAlgorithm: 'SHA256',
        validityPeriod: 90,
        challengeType: 'tls',
      },
    });
    expect(gen.statusCode, gen.body).toBe(202);
    let state = 'running';
    for (let i = 0; i < 100 && ['queued', 'running'].includes(state); i++) {
      await new Promise((r) => setTimeout(r, 100));
      state = (await t.call({ method: 'GET', url: `/api/jobs/${gen.json().jobId}` })).json().state;
    }
    expect(state).toBe('succeeded');
    const [mine] = (await t.call({ method: 'GET', url: `/api/ssl/certificates?q=self-signed` })).json();
    const put = await t.call({
      method: 'PUT',
      url: '/api/ssl/mail-certificate',
      payload: { certificateId: mine.id },
    });
    expect(put.json().servedId).toBe(mine.id);
    const s = (await t.call({ method: 'GET', url: '/api/ssl/settings' })).json();
    const saved = await t.call({
      method: 'POST',
      url: '/api/ssl/settings',
      payload: { settings: { ...s.settings, minimumTlsVersion: '1.3' }, version: s.version },
    });
    expect(saved.statusCode, saved.body).toBe(200);
    await reload();
    expect(served(ports.smtp, true).fingerprint).toBe(mine.fingerprint);
    expect(served(ports.imaps, false).fingerprint).toBe(mine.fingerprint);
    // TLS 1.2 is below the floor now: both refuse it; 1.3 works.
    expect(served(ports.smtp, true, ['-tls1_2']).fingerprint).toBeNull();
    expect(served(ports.imaps, false, ['-tls1_2']).fingerprint).toBeNull();
    expect(served(ports.imaps, false, ['-tls1_3']).fingerprint).toBe(mine.fingerprint);
  }, 120_000);
});
