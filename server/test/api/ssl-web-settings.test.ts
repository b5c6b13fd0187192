import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { SSL_SETTING_EFFECT, SSL_SETTING_REASONS } from '@mailroom/contract/ssl';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dialects, startTestApp, type TestContext } from '../harness.ts';
import { makeCert, makeChain } from '../ssl-certs.ts';

/** Issue 19: the SSL settings that reach Apache, and what it cannot honour, refused at the field. */
describe.each(dialects())('SSL settings for the web server on %s', (dialect) => {
  let t: TestContext;
  let dir: string;
  beforeAll(async () => {
    t = await startTestApp(dialect);
    dir = mkdtempSync(path.join(os.tmpdir(), 'mailroom-ssl-web-api-'));
  });
  afterAll(async () => {
    rmSync(dir, { recursive: true, force: true });
    await t.close();
  });

  const save = async (patch: object) => {
    const cur = (await t.call({ method: 'GET', url: '/api/ssl/settings' })).json<{
      settings: object;
      version: number;
    }>();
    return t.call({
      method: 'POST',
      url: '/api/ssl/settings',
      payload: { settings: { ...cur.settings, ...patch }, version: cur.version },
    });
  };
  const refusal = async (patch: object) => {
    const res = await save(patch);
    expect(res.statusCode, res.body).toBe(400);
    return res.json<{ details: { field: string; message: string }[] }>().details[0];
  };

  it('labels: what renders into Apache says so; HTTP/3, offloading, the write timeout stay without effect', () => {
    for (const k of [
      'serverPort',
      'enableHttp2',
      'enableHsts',
      'hstsMaxAge',
      'enableHstsIncludeSubdomains',
      'enableHstsPreload',
      'enableSni',
      'sslHandshakeTimeout',
      'sslReadTimeout',
      'enableSslBuffering',
      'sslBufferSize',
      'enableSslLogging',
      'sslLogLevel',
      'enableSslSessionResumption',
      'enableSslClientCertificates',
      'sslClientCertificatePath',
      'enableSslClientVerification',
      'sslClientVerificationDepth',
      'enableHttps',
      'defaultCertificatePath',
      'certificateChainPath',
      'privateKeyPath',
      'enableSslOffloading',
      'enableSslHealthChecks',
      'sslHealthCheckInterval',
      'enableSslAlerts',
      'sslAlertThreshold',
      'enableSslMetrics',
      'sslMetricsInterval',
    ] as const)
      expect(SSL_SETTING_EFFECT[k], k).toBe('web');
    // What mod_ssl 2.4 / OpenSSL 3 cannot honour keeps its value, with the reason said at the field.
    for (const k of [
      'enableHttp3',
      'sslWriteTimeout',
      'sslSessionTicketLifetime',
      'sslRenegotiationTimeout',
    ] as const) {
      expect(SSL_SETTING_EFFECT[k], k).toBe('none');
      expect(SSL_SETTING_REASONS[k], k).toBeTruthy();
    }
  });

  it('refuses what Apache cannot honour and inconsistent client certificate settings, with the field and reason; nothing is saved', async () => {
    const before = (await t.call({ method: 'GET', url: '/api/ssl/settings' })).json<{ version: number }>();
    expect(await refusal({ enableHttp3: true })).toEqual({
      field: 'settings.enableHttp3',
      message: 'Apache has no HTTP/3 (QUIC): it cannot be switched on',
    });
    expect(await refusal({ serverProtocol: 'ssl' })).toEqual({
      field: 'settings.serverProtocol',
      message: 'SSL 2.0 and 3.0 are not in the installed OpenSSL: only tls can be served',
    });
    expect(await refusal({ enableHstsPreload: true, enableHstsIncludeSubdomains: false })).toEqual({
      field: 'settings.enableHstsPreload',
      message:
        'HSTS Preload needs HSTS Include Subdomains and an HSTS Max Age of at least 31536000 (hstspreload.org)',
    });
    expect(await refusal({ enableSslClientVerification: true })).toEqual({
      field: 'settings.enableSslClientVerification',
      message: 'SSL Client Verification needs Enable SSL Client Certificates',
    });
    expect(await refusal({ enableSslClientCertificates: true, enableSslClientVerification: true })).toEqual({
      field: 'settings.sslClientCertificatePath',
      message: 'SSL Client Certificate Path is required to verify client certificates',
    });
    const notPem = path.join(dir, 'not-a-cert.txt');
    writeFileSync(notPem, 'hello\n');
    expect(
      await refusal({
        enableSslClientCertificates: true,
        enableSslClientVerification: true,
        sslClientCertificatePath: notPem,
      }),
    ).toEqual({
      field: 'settings.sslClientCertificatePath',
      message: `No readable PEM certificate at ${notPem}`,
    });
    const after = (await t.call({ method: 'GET', url: '/api/ssl/settings' })).json<{ version: number }>();
    expect(after.version).toBe(before.version);
  });

  it('saves a readable CA file for client verification, audited', async () => {
    const ca = path.join(dir, 'ca.pem');
    writeFileSync(ca, (await makeCert({ cn: 'Client CA', ca: true })).pem);
    const res = await save({
      enableSslClientCertificates: true,
      enableSslClientVerification: true,
      sslClientCertificatePath: ca,
      sslClientVerificationDepth: 2,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().settings).toMatchObject({
      sslClientCertificatePath: ca,
      sslClientVerificationDepth: 2,
    });
    const audit = await t.call({ method: 'GET', url: '/api/audit?action=ssl.settings.save' });
    expect(audit.statusCode).toBe(200);
    expect(JSON.stringify(audit.json())).toContain('ssl.settings.save');
  });

  it('default certificate: refused unless readable PEM, key matching, chain verifying, each at its field; nothing is saved', async () => {
    const before = (await t.call({ method: 'GET', url: '/api/ssl/settings' })).json<{ version: number }>();
    const { root, inter, leaf } = await makeChain(['default.example.com']);
    const other = await makeCert({ cn: 'other.example.com' });
    const f = (name: string, text: string) => {
      const p = path.join(dir, name);
      writeFileSync(p, text);
      return p;
    };
    const cert = f('default.crt', leaf.pem);
    const key = f('default.key', leaf.keyPem);
    const chain = f('chain.crt', inter.pem + root.pem);
    const missing = path.join(dir, 'missing.crt');
    expect(await refusal({ defaultCertificatePath: missing, privateKeyPath: key })).toEqual({
      field: 'settings.defaultCertificatePath',
      message: `No readable PEM certificate at ${missing}`,
    });
    const text = f('text.crt', 'not a certificate\n');
    expect(await refusal({ defaultCertificatePath: text, privateKeyPath: key })).toEqual({
      field: 'settings.defaultCertificatePath',
      message: `No readable PEM certificate at ${text}`,
    });
    expect(await refusal({ defaultCertificatePath: cert, privateKeyPath: text })).toEqual({
      field: 'settings.privateKeyPath',
      message: `No readable PEM private key at ${text}`,
    });
    const otherKey = f('other.key', other.keyPem);
    expect(await refusal({ defaultCertificatePath: cert, privateKeyPath: otherKey })).toEqual({
      field: 'settings.privateKeyPath',
      message: `The private key at ${otherKey} does not match the certificate at ${cert}`,
    });
    // The root alone does not verify a leaf the intermediate signed.
    const rootOnly = f('root.crt', root.pem);
    expect(
      await refusal({ defaultCertificatePath: cert, privateKeyPath: key, certificateChainPath: rootOnly }),
    ).toEqual({
      field: 'settings.certificateChainPath',
      message: `The chain at ${rootOnly} does not verify the certificate at ${cert} (its issuer is not in the chain)`,
    });
    expect(
      await refusal({ defaultCertificatePath: cert, privateKeyPath: key, certificateChainPath: missing }),
    ).toEqual({
      field: 'settings.certificateChainPath',
      message: `No readable PEM certificate at ${missing}`,
    });
    expect((await t.call({ method: 'GET', url: '/api/ssl/settings' })).json().version).toBe(before.version);
    const ok = await save({ defaultCertificatePath: cert, privateKeyPath: key, certificateChainPath: chain });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json().settings).toMatchObject({ defaultCertificatePath: cert, certificateChainPath: chain });
    // Back to the spec's defaults: absent on this machine, they are not an error.
    const back = await save({
      defaultCertificatePath: '/etc/ssl/certs/server.crt',
      privateKeyPath: '/etc/ssl/private/server.key',
      certificateChainPath: '/etc/ssl/certs/chain.crt',
    });
    expect(back.statusCode, back.body).toBe(200);
  });

  it('Enable HTTPS off: the virtual host form says why at its SSL fields; on, they are free again', async () => {
    const caps = async () =>
      (await t.call({ method: 'GET', url: '/api/web/capabilities' })).json<{
        vhostFields: Record<string, string>;
      }>().vhostFields;
    expect((await caps()).sslEnabled).toBeUndefined();
    expect((await save({ enableHttps: false })).statusCode).toBe(200);
    const off = await caps();
    for (const k of ['sslEnabled', 'sslPort', 'redirectHttpToHttps', 'sslCertificateId'])
      expect(off[k], k).toBe(
        'Enable HTTPS is off in the SSL settings: Apache serves no HTTPS and redirects nothing to it (ACME HTTP-01 still works). These values are kept.',
      );
    expect((await save({ enableHttps: true })).statusCode).toBe(200);
    expect((await caps()).sslEnabled).toBeUndefined();
  });

  it('web settings: the PHP defaults are no longer disabled, PHP Session Save Path is a plain folder', async () => {
    const c = (await t.call({ method: 'GET', url: '/api/web/capabilities' })).json<{
      settingsFields: Record<string, string>;
    }>();
    for (const f of [
      'phpMaxInputTime',
      'phpMaxFileUploads',
      'phpSessionSavePath',
      'phpSessionCookieLifetime',
      'phpSessionCookieSecure',
      'phpSessionCookieHttpOnly',
      // The server-wide limits: a new host's values and every host's ceiling (web-hosting.test.ts).
      'phpMemoryLimit',
      'phpMaxExecutionTime',
      'phpUploadMaxFilesize',
      'phpPostMaxSize',
    ])
      expect(c.settingsFields[f], f).toBeUndefined();
    const s = (await t.call({ method: 'GET', url: '/api/web/settings' })).json<Record<string, unknown>>();
    const bad = await t.call({
      method: 'POST',
      url: '/api/web/settings',
      payload: { ...s, phpSessionSavePath: '/var/lib/2;sessions' },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().details[0]).toEqual({
      field: 'phpSessionSavePath',
      message: 'PHP Session Save Path format is invalid',
    });
    const none = await t.call({
      method: 'POST',
      url: '/api/web/settings',
      payload: { ...s, phpSessionCookieSameSite: 'None', phpSessionCookieSecure: false },
    });
    expect(none.statusCode).toBe(400);
    expect(none.json().details[0]).toEqual({
      field: 'phpSessionCookieSameSite',
      message:
        'PHP Session Cookie SameSite None needs PHP Session Cookie Secure (browsers refuse it otherwise)',
    });
    expect(s.phpSessionCookieSameSite).toBe('Lax');
  });
});
