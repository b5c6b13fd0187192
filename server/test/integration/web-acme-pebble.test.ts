import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebContext } from '../../src/features/web/stack/web.context.ts';
import { ACME_LAB_MISSING, type AcmeLab, startAcmeLab } from '../acme-lab.ts';
import { skipLoudly } from '../skip-loudly.ts';
import { ApacheProcess, freePort, openForApache } from './web-apache-helpers.ts';
import { execFileSync } from 'node:child_process';

const apache = (() => {
  try {
    execFileSync('apache2', ['-v']);
    return true;
  } catch {
    return false;
  }
})();
const missing = ACME_LAB_MISSING ?? (apache ? null : 'apache2 (Debian package apache2)');
if (missing) skipLoudly(`${missing} missing: ACME HTTP-01 through Mailroom's web server is not tested`);

const ZONE = 'web-acme.test';

// HTTP-01 through Mailroom's web server: Apache, on the port pebble validates, serves
// /.well-known/acme-challenge/ of every host from Mailroom's challenge folder; the SSL area's
// generate option "Through Mailroom's web server" needs no webroot.
describe.skipIf(!!missing)('ACME HTTP-01 through Apache against pebble', () => {
  let lab: AcmeLab;
  let server: ApacheProcess;

  beforeAll(async () => {
    lab = await startAcmeLab({ zone: ZONE, addresses: ['@', 'www'], validitySeconds: 900 });
    const deps = lab.deps;
    const port = deps.config.acme.httpPort as number;
    const ctx = new WebContext(
      { ...deps, config: { ...deps.config, web: { httpPort: port, httpsPort: await freePort() } } },
      null,
    );
    await ctx.applyAll();
    openForApache(deps.config.dataDir);
    const root = deps.host.root;
    server = new ApacheProcess(
      path.join(root, 'etc/apache2'),
      path.join(root, 'run/apache2/mailroom-apache2.pid'),
    );
    await server.start(port);
  }, 120_000);
  afterAll(async () => {
    await server?.stop();
    await lab?.close();
  }, 60_000);

  it('issues a certificate with the generate option "through Mailroom’s web server" (no webroot given)', async () => {
    const gen = await lab.call('POST', 'ssl/certificates/generate', {
      domain: `www.${ZONE}`,
      certificateType: 'DV',
      keyAlgorithm: 'ECDSA',
      keySize: 256,
      signatureAlgorithm: 'SHA256',
      validityPeriod: 90,
      challengeType: 'http',
      httpVia: 'web-server',
      method: 'acme',
      acmeDirectoryUrl: lab.directoryUrl,
    });
    expect(gen.status, JSON.stringify(gen.body)).toBe(202);
    let job: { state: string; message: string | null } = { state: 'queued', message: null };
    for (let i = 0; i < 600 && ['queued', 'running'].includes(job.state); i++) {
      await new Promise((r) => setTimeout(r, 100));
      job = (await lab.call('GET', `jobs/${gen.body.jobId as number}`)).body as typeof job;
    }
    expect(job, JSON.stringify(job)).toMatchObject({ state: 'succeeded' });
    const list = (await lab.call('GET', `ssl/certificates?q=www.${ZONE}`)).body as unknown as {
      source: string;
    }[];
    expect(list[0]?.source).toBe('acme');
    // Apache's access log (the one log it writes: the settings' Access Log Path) saw pebble's validation request.
    const log = readFileSync(lab.deps.host.path('/var/log/apache2/access.log'), 'utf8');
    expect(log).toMatch(/ 200 /);
  });
});
