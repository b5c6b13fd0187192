import { spawnSync } from 'node:child_process';
import { X509Certificate } from 'node:crypto';
import { chmodSync } from 'node:fs';
import path from 'node:path';
import { JOB_KIND_SSL } from '@mailroom/contract/ssl';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SCHEDULER_ACTOR } from '../../src/features/ssl/renewal-scheduler.job.ts';
import { ACME_LAB_MISSING, type AcmeLab, startAcmeLab } from '../acme-lab.ts';
import { type MailDaemons, missingMailPackages, startMailDaemons, which } from '../mail-daemons.ts';
import { freePort } from '../postgres-cluster.ts';
import { skipLoudly } from '../skip-loudly.ts';

/**
 * The auto-renewal scheduler, not a direct renew call: pebble issues the mail host's certificate
 * with a 10-minute validity (inside any renewal threshold), auto-renewal is switched on, and the
 * scheduler's own timer orders a new one from pebble. The renewal re-applies the mail stack, whose
 * pipeline reloads the running Postfix and Dovecot through the service control (as the supervisor
 * does in production): `openssl s_client` then reads the new serial on SMTP STARTTLS and IMAPS.
 */
const ZONE = 'renew-it.test';
const HOST = `mail.${ZONE}`;
const isRoot = process.getuid?.() === 0;
const missing = [ACME_LAB_MISSING, ...missingMailPackages('sqlite')].filter(Boolean).join(', ');
const reason = missing ? `missing: ${missing}` : !isRoot ? 'not running as root (Postfix and Dovecot)' : '';
if (reason) skipLoudly(`${reason}: the scheduled renewal test against pebble and the mail stack is SKIPPED`);

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The serial of the leaf a TLS server presents (null: no handshake). */
function servedSerial(port: number, starttls: boolean): string | null {
  const r = spawnSync(
    which('openssl')!,
    ['s_client', '-connect', `127.0.0.1:${port}`, ...(starttls ? ['-starttls', 'smtp'] : [])],
    { input: '', encoding: 'utf8', timeout: 20_000 },
  );
  const m = /-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/.exec(r.stdout);
  return m ? new X509Certificate(m[0]).serialNumber.toUpperCase() : null;
}

describe.skipIf(!!reason)('the renewal scheduler renews through pebble and the mail stack serves it', () => {
  let lab: AcmeLab;
  let daemons: MailDaemons | null = null;
  const ports = { smtp: 0, submission: 0, imap: 0, imaps: 0, milter: 0 };
  const reloads: string[] = [];

  beforeAll(async () => {
    for (const k of Object.keys(ports) as (keyof typeof ports)[]) ports[k] = await freePort();
    lab = await startAcmeLab({
      zone: ZONE,
      addresses: ['mail'],
      validitySeconds: 600,
      env: {
        MAILROOM_SMTP_PORT: String(ports.smtp),
        MAILROOM_SUBMISSION_PORT: String(ports.submission),
        MAILROOM_IMAP_PORT: String(ports.imap),
        MAILROOM_IMAPS_PORT: String(ports.imaps),
        MAILROOM_MILTER_PORT: String(ports.milter),
        MAILROOM_SSL_RENEWAL_TICK_SECONDS: '1',
      },
      // What the supervisor does for the mail pipeline's reloads, on the daemons this test runs.
      async reload(name) {
        const root = lab.deps.host.path('/');
        if (name === 'postfix' && daemons) {
          const r = spawnSync(which('postfix')!, ['-c', path.join(root, 'etc/postfix'), 'reload'], {
            encoding: 'utf8',
          });
          reloads.push('postfix');
          return { ok: r.status === 0, attempted: true, output: r.stderr };
        }
        if (name === 'dovecot' && daemons?.dovecot.pid) {
          process.kill(daemons.dovecot.pid, 'SIGHUP');
          reloads.push('dovecot');
          return { ok: true, attempted: true, output: 'SIGHUP' };
        }
        return { ok: true, attempted: false, output: 'not running' };
      },
    });
    const must = async (method: 'GET' | 'POST', url: string, payload?: object) => {
      const r = await lab.call(method, url, payload);
      if (r.status !== 200) throw new Error(`${method} ${url}: ${r.status} ${JSON.stringify(r.body)}`);
      return r.body as { settings: Record<string, unknown>; version: number };
    };
    const mail = await must('GET', 'mail/settings');
    await must('POST', 'mail/settings', {
      settings: {
        ...mail.settings,
        hostname: HOST,
        enableSpamFilter: false,
        enableVirusScan: false,
        enableDKIM: false,
      },
      version: mail.version,
    });
    // Off while the first certificate is issued: the scheduler's first check must find it.
    const ssl = await must('GET', 'ssl/settings');
    await must('POST', 'ssl/settings', {
      settings: { ...ssl.settings, enableAutoRenewal: false },
      version: ssl.version,
    });
  }, 120_000);

  afterAll(async () => {
    await daemons?.stop();
    await lab?.close();
  }, 60_000);

  it('renews the served certificate on its own and Postfix and Dovecot serve the new serial', async () => {
    const waitJob = async (id: number) => {
      for (let i = 0; i < 600; i++) {
        const j = (await lab.call('GET', `jobs/${id}`)).body as { state: string; message: string | null };
        if (!['queued', 'running'].includes(j.state)) return j;
        await sleep(100);
      }
      throw new Error('job did not finish');
    };
    const gen = await lab.call('POST', 'ssl/certificates/generate', {
      domain: HOST,
      certificateType: 'DV',
      keyAlgorithm: 'ECDSA',
      keySize: 256,
      signatureAlgorithm: 'SHA256',
      validityPeriod: 90,
      challengeType: 'dns',
      dnsProvider: 'mailroom',
      method: 'acme',
      acmeDirectoryUrl: lab.directoryUrl,
    });
    expect(gen.status, JSON.stringify(gen.body)).toBe(202);
    expect(await waitJob(gen.body.jobId as number)).toMatchObject({ state: 'succeeded' });
    const [first] = (await lab.call('GET', `ssl/certificates?q=${HOST}`)).body as unknown as {
      id: number;
      serialNumber: string;
      daysUntilExpiry: number;
      status: string;
      inUse: string[];
      autoRenewal: boolean;
    }[];
    expect(first).toMatchObject({ daysUntilExpiry: 1, status: 'expiring', inUse: ['mail server'] });

    // The lab's temporary folder is 0700; Postfix's own user must reach its files below it.
    chmodSync(path.dirname(lab.deps.config.dataDir), 0o755);
    daemons = await startMailDaemons(lab.deps.host.path('/'), ports);
    expect(servedSerial(ports.smtp, true)).toBe(first!.serialNumber);
    expect(servedSerial(ports.imaps, false)).toBe(first!.serialNumber);
    expect(reloads).toEqual([]);

    // Auto-renewal on: nothing else is called; the scheduler's timer (1 s here) does the rest.
    const ssl = (await lab.call('GET', 'ssl/settings')).body as { settings: object; version: number };
    const on = await lab.call('POST', 'ssl/settings', {
      settings: { ...ssl.settings, enableAutoRenewal: true },
      version: ssl.version,
    });
    expect(on.status).toBe(200);

    let smtp: string | null = first!.serialNumber;
    for (let i = 0; i < 90 && smtp === first!.serialNumber; i++) {
      await sleep(500);
      smtp = servedSerial(ports.smtp, true);
    }
    const renewed = (
      (await lab.call('GET', `ssl/certificates/${first!.id}`)).body as { serialNumber: string }
    ).serialNumber;
    expect(renewed).not.toBe(first!.serialNumber);
    expect(smtp).toBe(renewed);
    expect(servedSerial(ports.imaps, false)).toBe(renewed);
    expect(reloads).toEqual(expect.arrayContaining(['postfix', 'dovecot']));
    // It was the scheduler: its job and the audit line carry its name.
    // The daemons serve the new certificate once reloaded; the job records its end just after.
    const db = lab.deps.database.db;
    const lastJob = () =>
      db
        .selectFrom('jobs')
        .selectAll()
        .where('kind', '=', JOB_KIND_SSL.renewExpiring)
        .orderBy('id', 'desc')
        .executeTakeFirst();
    let job = await lastJob();
    for (let i = 0; i < 100 && job?.state === 'running'; i++) {
      await sleep(100);
      job = await lastJob();
    }
    expect(job).toMatchObject({ state: 'succeeded', started_by: SCHEDULER_ACTOR });
  }, 120_000);
});
