import { X509Certificate, createPrivateKey } from 'node:crypto';
import { readdirSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import http from 'node:http';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type AcmeIssueRequest,
  type CertificateStage,
  AcmeError,
  createAcmeIssuer,
} from '../../src/features/ssl/acme/acme-issuer.service.ts';
import * as acme from 'acme-client';
import { SecretVault, VAULT_FILES } from '../../src/security/secret-vault.ts';
import { ACME_LAB_MISSING, type AcmeLab, startAcmeLab } from '../acme-lab.ts';
import { skipLoudly } from '../skip-loudly.ts';

// ACME against Debian's pebble (a test CA), validating through Mailroom's own HTTP-01 listener and
// DNS-01 records published in Mailroom's zones and served by a named started on its rendered config.
if (ACME_LAB_MISSING) {
  const msg = `${ACME_LAB_MISSING} missing: the ACME (pebble) integration tests are SKIPPED`;
  skipLoudly(msg);
}

const ZONE = 'acme-it.test';
/** Every certificate pebble issues in this file lives this long (pebble's certificateValidityPeriod). */
const VALIDITY_SECONDS = 900;

describe.skipIf(!!ACME_LAB_MISSING)('ACME issuance against pebble', () => {
  let lab: AcmeLab;

  const request = (over: Partial<AcmeIssueRequest>): AcmeIssueRequest => ({
    directoryUrl: lab.directoryUrl,
    contactEmail: 'hostmaster@example.org',
    domains: [`www.${ZONE}`],
    challenge: 'http-01',
    key: { algorithm: 'ECDSA', size: 256 },
    ...over,
  });

  const issue = async (over: Partial<AcmeIssueRequest>, signal = new AbortController().signal) => {
    const stages: { stage: CertificateStage; detail: string }[] = [];
    const issued = await createAcmeIssuer(lab.deps)(
      request(over),
      (stage, detail) => stages.push({ stage, detail }),
      signal,
    );
    return { issued, stages };
  };
  const challengeTxt = () =>
    lab.deps.database.db
      .selectFrom('dns_records')
      .selectAll()
      .where('zone', '=', ZONE)
      .where('rtype', '=', 'TXT')
      .execute();

  beforeAll(async () => {
    lab = await startAcmeLab({
      zone: ZONE,
      addresses: ['@', 'www', 'mail', 'renew'],
      validitySeconds: VALIDITY_SECONDS,
    });
  }, 120_000);

  afterAll(async () => {
    await lab?.close();
  });

  const leafOf = (pem: string) => new X509Certificate(pem);
  const sans = (pem: string) =>
    (leafOf(pem).subjectAltName ?? '')
      .split(', ')
      .map((s) => s.replace(/^DNS:/, ''))
      .sort();

  it('issues through HTTP-01 answered by Mailroom’s own listener', async () => {
    const { issued, stages } = await issue({ domains: [`www.${ZONE}`, `mail.${ZONE}`] });
    const leaf = leafOf(issued.certificatePem);
    expect(sans(issued.certificatePem)).toEqual([`mail.${ZONE}`, `www.${ZONE}`]);
    // The key we were given is the certificate's key, and the chain signed the leaf.
    expect(leaf.checkPrivateKey(createPrivateKey(issued.privateKeyPem))).toBe(true);
    const chain = issued.chainPem.match(/-----BEGIN CERTIFICATE-----[^-]+-----END CERTIFICATE-----/g) ?? [];
    expect(chain.length).toBeGreaterThan(0);
    expect(leaf.verify(new X509Certificate(chain[0] as string).publicKey)).toBe(true);
    expect(leaf.publicKey.asymmetricKeyDetails?.namedCurve).toBe('prime256v1');
    expect(stages.map((s) => s.stage)).toEqual(expect.arrayContaining(['validate', 'key', 'request']));
    expect(stages.findIndex((s) => s.stage === 'key')).toBeLessThan(
      stages.findIndex((s) => s.stage === 'request'),
    );
    expect(stages.some((s) => /http-01/.test(s.detail))).toBe(true);
    // One account for the directory, its key stored encrypted.
    const accounts = await lab.deps.database.db.selectFrom('acme_accounts').selectAll().execute();
    expect(accounts).toHaveLength(1);
    expect(accounts[0]?.directory_url).toBe(lab.directoryUrl);
    expect(accounts[0]?.account_url).toMatch(/^https:\/\/127\.0\.0\.1:\d+\//);
    expect(accounts[0]?.account_key).not.toContain('PRIVATE KEY');
  });

  it('issues through HTTP-01 with token files in a webroot that a web server serves', async () => {
    // A plain static server on the port pebble validates, serving the webroot folder (as Apache would).
    const docroot = lab.deps.host.path('/var/www/acme-it');
    const served: string[] = [];
    const web = http.createServer((req, res) => {
      const file = path.join(docroot, path.normalize(req.url ?? '/'));
      served.push(req.url ?? '');
      readFile(file).then(
        (body) => res.writeHead(200).end(body),
        () => res.writeHead(404).end(),
      );
    });
    await new Promise<void>((r) => web.listen(lab.deps.config.acme.httpPort as number, '127.0.0.1', r));
    try {
      const { issued } = await issue({ domains: [`www.${ZONE}`], webroot: '/var/www/acme-it' });
      expect(sans(issued.certificatePem)).toEqual([`www.${ZONE}`]);
      expect(served.some((u) => u.startsWith('/.well-known/acme-challenge/'))).toBe(true);
      // The token files are gone once the order is done.
      expect(readdirSync(path.join(docroot, '.well-known/acme-challenge'))).toEqual([]);
    } finally {
      await new Promise<void>((r) => web.close(() => r()));
    }
  });

  it('issues a wildcard through DNS-01 in Mailroom’s own zone, served by BIND, and removes the record', async () => {
    const { issued, stages } = await issue({
      domains: [`*.${ZONE}`, ZONE],
      challenge: 'dns-01',
      dnsProvider: 'mailroom',
      key: { algorithm: 'RSA', size: 2048 },
    });
    expect(sans(issued.certificatePem)).toEqual([`*.${ZONE}`, ZONE]);
    expect(leafOf(issued.certificatePem).publicKey.asymmetricKeyDetails?.modulusLength).toBe(2048);
    expect(stages.some((s) => /_acme-challenge\.acme-it\.test served/.test(s.detail))).toBe(true);
    // Both TXT records (apex and wildcard share the name) went through the pipeline and are gone.
    expect(await challengeTxt()).toEqual([]);
    expect(lab.namedLog()).not.toMatch(/acme-it\.test.*not loaded due to errors/);
  });

  it('surfaces the CA’s own words when a challenge fails', async () => {
    // No address for this name in the zone: pebble cannot reach it and says why.
    const err = await issue({ domains: [`nowhere.${ZONE}`] }).then(
      () => null,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(AcmeError);
    const acmeErr = err as AcmeError;
    expect(acmeErr.caMessage, acmeErr.message).toMatch(/nowhere\.acme-it\.test/);
    expect(acmeErr.message).toContain(acmeErr.caMessage as string);
  });

  it('refuses Ed25519 and a wildcard over HTTP-01 before asking the CA', async () => {
    const ed = await issue({ key: { algorithm: 'Ed25519', size: 256 } }).catch((e: unknown) => e);
    expect(ed).toBeInstanceOf(AcmeError);
    expect((ed as Error).message).toMatch(/Ed25519/);
    const wild = await issue({ domains: [`*.${ZONE}`] }).catch((e: unknown) => e);
    expect((wild as Error).message).toMatch(/dns-01/);
    const relative = await issue({ webroot: 'var/www' }).catch((e: unknown) => e);
    expect((relative as Error).message).toMatch(/absolute folder path/);
  });

  it('issues a short-lived certificate and renews it with a second order for the same names', async () => {
    const names = [`renew.${ZONE}`];
    const first = (await issue({ domains: names, key: { algorithm: 'ECDSA', size: 384 } })).issued;
    const a = leafOf(first.certificatePem);
    const lifetime = (Date.parse(a.validTo) - Date.parse(a.validFrom)) / 1000;
    expect(lifetime).toBeGreaterThan(VALIDITY_SECONDS - 5);
    expect(lifetime).toBeLessThan(VALIDITY_SECONDS + 5);
    expect(a.publicKey.asymmetricKeyDetails?.namedCurve).toBe('secp384r1');

    const second = (await issue({ domains: names, key: { algorithm: 'ECDSA', size: 384 } })).issued;
    const b = leafOf(second.certificatePem);
    expect(sans(second.certificatePem)).toEqual(names);
    expect(b.serialNumber).not.toBe(a.serialNumber);
    expect(second.privateKeyPem).not.toBe(first.privateKeyPem);
    expect(Date.parse(b.validTo)).toBeGreaterThanOrEqual(Date.parse(a.validTo));
    // The same account served both orders.
    expect(await lab.deps.database.db.selectFrom('acme_accounts').selectAll().execute()).toHaveLength(1);
  });

  it('lists the DNS providers with their availability', async () => {
    const res = await lab.call('GET', 'ssl/acme/providers');
    expect(res.status).toBe(200);
    const providers = res.body.providers as { id: string; available: boolean }[];
    expect(providers.filter((p) => p.available).map((p) => p.id)).toEqual(['mailroom', 'cloudflare']);
    expect(providers.map((p) => p.id)).toEqual(
      expect.arrayContaining(['route53', 'godaddy', 'namecheap', 'digitalocean']),
    );
    expect(res.body.httpListenerPort).toBe(lab.deps.config.acme.httpPort);
  });

  it('removes the challenge record when the order is cancelled midway', async () => {
    const ctl = new AbortController();
    const stages: string[] = [];
    const err = await createAcmeIssuer(lab.deps)(
      request({ domains: [`www.${ZONE}`], challenge: 'dns-01', dnsProvider: 'mailroom' }),
      (_stage, detail) => {
        stages.push(detail);
        // Cancel as soon as the TXT record is in the zone, before the CA is asked to validate.
        if (/added to/.test(detail)) ctl.abort();
      },
      ctl.signal,
    ).catch((e: unknown) => e);
    expect((err as Error).name).toBe('AbortError');
    expect(stages.some((d) => /added to acme-it\.test/.test(d))).toBe(true);
    expect(await challengeTxt()).toEqual([]);
  });

  describe('an account the CA no longer knows (issue 22 item 9)', () => {
    const account = async () =>
      lab.deps.database.db
        .selectFrom('acme_accounts')
        .selectAll()
        .where('directory_url', '=', lab.directoryUrl)
        .executeTakeFirstOrThrow();

    it('CA reset (account URL unknown): registered again once and the order retried', async () => {
      await issue({ domains: [`www.${ZONE}`] });
      const before = await account();
      // What a CA reset looks like from here: the stored account URL names nothing at the CA.
      const gone = before.account_url.replace(/[^/]+$/, 'ffffffff');
      await lab.deps.database.db
        .updateTable('acme_accounts')
        .set({ account_url: gone })
        .where('id', '=', before.id)
        .execute();
      const { issued, stages } = await issue({ domains: [`www.${ZONE}`] });
      expect(sans(issued.certificatePem)).toEqual([`www.${ZONE}`]);
      const after = await account();
      expect(after.account_url).not.toBe(gone);
      expect(after.account_url).toMatch(/^https:/);
      expect(stages.filter((s) => /no longer knows the ACME account/.test(s.detail))).toHaveLength(1);
    }, 120_000);

    it('a deactivated account: a new key is registered and the order retried', async () => {
      const before = await account();
      const key = SecretVault.open(lab.deps.config.dataDir, VAULT_FILES.acme).open(before.account_key);
      const client = new acme.Client({
        directoryUrl: lab.directoryUrl,
        accountKey: key,
        accountUrl: before.account_url,
      });
      await client.updateAccount({ status: 'deactivated' });
      const { issued } = await issue({ domains: [`www.${ZONE}`] });
      expect(sans(issued.certificatePem)).toEqual([`www.${ZONE}`]);
      const after = await account();
      expect(after.account_key).not.toBe(before.account_key);
      expect(after.account_url).not.toBe(before.account_url);
    }, 120_000);

    it('the settings reset the account of a directory; the next order registers a new one', async () => {
      const before = await account();
      const list = await lab.call('GET', 'ssl/acme/accounts');
      expect(list.status).toBe(200);
      expect(list.body).toContainEqual(
        expect.objectContaining({ directoryUrl: lab.directoryUrl, accountUrl: before.account_url }),
      );
      const reset = await lab.call('POST', 'ssl/acme/accounts/reset', { directoryUrl: lab.directoryUrl });
      expect(reset.status).toBe(200);
      expect(reset.body).toMatchObject({ reset: true });
      expect((await lab.call('GET', 'ssl/acme/accounts')).body).toEqual([]);
      await issue({ domains: [`www.${ZONE}`] });
      expect((await account()).account_url).not.toBe(before.account_url);
    }, 120_000);
  });
});
