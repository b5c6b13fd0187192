import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DaemonName, ServiceControl } from '../../src/host/service-control.ts';
import { dialects, startTestApp, type TestContext } from '../harness.ts';
import { FAST_JOBS, waitJob } from '../job-wait.ts';
import { zoneForm } from '../dns-zone-form.ts';
import { makeChain } from '../ssl-certs.ts';

// System mode keeps the daemon configuration and keys outside the data folder (under /). Here the
// host root is a temporary folder outside the data folder, as / is in system mode: a backup must
// hold those files, and a restore must put them back, apply every target again through the apply
// pipeline and reload the daemons (a recording service control stands in for systemd).
const FAST = FAST_JOBS;

describe.each(dialects())('backups of the daemon files outside the data folder on %s', (dialect) => {
  let t: TestContext;
  let root: string;
  const reloads: { name: DaemonName; zones?: string[] }[] = [];
  const at = (p: string) => path.join(root, p);

  beforeAll(async () => {
    root = mkdtempSync(path.join(os.tmpdir(), 'mailroom-hostroot-'));
    const services: ServiceControl = {
      mode: 'system',
      reload: async (name, opts) => {
        reloads.push({ name, ...(opts?.zones ? { zones: opts.zones } : {}) });
        return { ok: true, attempted: true, output: `${name} reloaded` };
      },
      states: async () => [],
      close: async () => undefined,
    };
    t = await startTestApp(dialect, {
      env: { MAILROOM_ROOT: root },
      jobs: FAST,
      services: async () => services,
    });
  });
  afterAll(async () => {
    await t.close();
    rmSync(root, { recursive: true, force: true });
  });

  it('archives the rendered configuration and keys; a restore puts them back, re-applies and reloads', async () => {
    expect(path.relative(t.dataDir, root).startsWith('..')).toBe(true);
    expect(
      (await t.call({ method: 'POST', url: '/api/dns/zones/add', payload: zoneForm('restore.example') }))
        .statusCode,
    ).toBe(200);
    const zoneFile = at('etc/bind/mailroom/zones/db.restore.example');
    expect(readFileSync(zoneFile, 'utf8')).toContain('restore.example');
    // The mail configuration rendered at start (the startup apply runs beside the start).
    const retry = await t.call({ method: 'POST', url: '/api/apply/mail/retry' });
    expect(retry.statusCode, retry.body).toBe(200);
    expect(existsSync(at('etc/postfix/main.cf'))).toBe(true);
    // Keys Mailroom keeps on the host: a DKIM private key and the mail TLS key.
    const dkim = at('var/lib/rspamd/dkim/restore.example.mail.key');
    mkdirSync(path.dirname(dkim), { recursive: true });
    writeFileSync(dkim, '-----BEGIN PRIVATE KEY-----\nDKIM-1\n-----END PRIVATE KEY-----\n', { mode: 0o600 });
    // The mail TLS key is the served certificate's (a key no certificate serves is removed).
    const hostname = (await t.call({ url: '/api/mail/settings' })).json().settings.hostname as string;
    const { inter, leaf } = await makeChain([hostname]);
    const up = await t.call({
      method: 'POST',
      url: '/api/ssl/certificates/upload',
      payload: {
        domain: hostname,
        certificateType: 'DV',
        keySize: 256,
        certificate: leaf.pem,
        privateKey: leaf.keyPem,
        certificateChain: inter.pem,
      },
    });
    expect(up.statusCode, up.body).toBe(200);
    const tlsKey = at('etc/mailroom/tls/mail.key');
    const tlsKeyText = readFileSync(tlsKey, 'utf8');
    expect(tlsKeyText).toContain('PRIVATE KEY');
    // Not Mailroom's: never archived.
    writeFileSync(at('etc/postfix/not-ours.cf'), 'x');

    let res = await t.call({ method: 'POST', url: '/api/backup/start', payload: { type: 'full' } });
    expect(res.statusCode).toBe(202);
    const made = await waitJob(t, res.json<{ jobId: number }>().jobId);
    expect(made.state, made.message ?? '').toBe('succeeded');
    const result = made.result as { backupId: number; file: string; hostFiles: number };
    expect(result.hostFiles).toBeGreaterThan(5);
    expect(made.message).toContain('daemon configuration and key files');
    const backupDir = path.join(t.dataDir, 'backups');
    const parts = execFileSync('tar', ['-tf', path.join(backupDir, result.file)], { encoding: 'utf8' });
    expect(parts.split('\n')).toContain('host.tar.gz');
    const scratch = mkdtempSync(path.join(os.tmpdir(), 'mailroom-hostpart-'));
    execFileSync('tar', ['-xf', path.join(backupDir, result.file), '-C', scratch, 'host.tar.gz']);
    const listed = execFileSync('tar', ['-tzf', path.join(scratch, 'host.tar.gz')], {
      encoding: 'utf8',
    }).split('\n');
    rmSync(scratch, { recursive: true, force: true });
    for (const f of [
      'etc/postfix/main.cf',
      'etc/postfix/master.cf',
      'etc/bind/mailroom/zones/db.restore.example',
      'etc/bind/mailroom/named.conf',
      'var/lib/rspamd/dkim/restore.example.mail.key',
      'etc/mailroom/tls/mail.key',
    ])
      expect(listed, f).toContain(f);
    expect(listed).not.toContain('etc/postfix/not-ours.cf');

    // Wipe: the zone goes (its file with it), the keys are lost or replaced.
    res = await t.call({ method: 'POST', url: '/api/dns/zones/remove/restore.example' });
    expect(res.statusCode, res.body).toBe(200);
    expect(existsSync(zoneFile)).toBe(false);
    rmSync(dkim);
    writeFileSync(tlsKey, 'SOMETHING-ELSE\n');
    reloads.length = 0;

    res = await t.call({ method: 'POST', url: `/api/backups/${result.backupId}/restore` });
    expect(res.statusCode).toBe(202);
    const restored = await waitJob(t, res.json<{ jobId: number }>().jobId);
    expect(restored.state, restored.message ?? '').toBe('succeeded');
    const r = restored.result as {
      hostFiles: string[];
      reapplied: { target: string; ok: boolean; message: string }[];
    };
    // The database and the files are back…
    const zones = await t.deps.database.db.selectFrom('dns_zones').select('domain').execute();
    expect(zones.map((z) => z.domain)).toContain('restore.example');
    expect(readFileSync(zoneFile, 'utf8')).toContain('restore.example');
    expect(readFileSync(dkim, 'utf8')).toContain('DKIM-1');
    expect(statSync(dkim).mode & 0o777).toBe(0o600);
    expect(readFileSync(tlsKey, 'utf8')).toBe(tlsKeyText);
    expect(r.hostFiles).toEqual(
      expect.arrayContaining(['/var/lib/rspamd/dkim/restore.example.mail.key', '/etc/mailroom/tls/mail.key']),
    );
    // …every target was applied again through the pipeline, and the daemons reloaded.
    const byTarget = Object.fromEntries(r.reapplied.map((x) => [x.target, x]));
    expect(byTarget.mail, JSON.stringify(r.reapplied)).toMatchObject({ ok: true });
    expect(byTarget.dns, JSON.stringify(r.reapplied)).toMatchObject({ ok: true });
    expect(new Set(reloads.map((x) => x.name))).toEqual(new Set(['postfix', 'dovecot', 'rspamd', 'named']));
    // The job says what happened: applied again (with the pipeline's own words) and, because the
    // restore put their files back, each daemon reloaded by name.
    expect(restored.message).toMatch(/applied again: .*dns \(/);
    expect(restored.message).toContain('reloaded: dovecot, named, postfix, rspamd');
    expect(restored.message).not.toContain('NOT live');
    expect(r.reapplied.filter((x) => x.target === 'named').map((x) => (x as { kind?: string }).kind)).toEqual(
      ['reload'],
    );
    const outcomes = (await t.call({ url: '/api/apply' })).json<{ target: string; state: string }[]>();
    const live = outcomes.filter((x) => ['mail', 'dns'].includes(x.target));
    expect(live.map((o) => [o.target, o.state]).sort()).toEqual([
      ['dns', 'applied'],
      ['mail', 'applied'],
    ]);
  });
});
