import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { SslMetricsAnswer } from '@mailroom/contract/web/ssl-metrics';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TLS_LOG_FIELD } from '../../src/features/web/settings/apache-conf.renderer.ts';
import { startTestApp, type TestContext } from '../harness.ts';
import { skipLoudly } from '../skip-loudly.ts';
import { ApacheProcess, freePort, openForApache } from './web-apache-helpers.ts';

const have = (cmd: string, args: string[]) => spawnSync(cmd, args, { stdio: 'ignore' }).status === 0;
const haveApache = have('apache2', ['-v']);
const haveCurl = have('curl', ['--version']);
if (!haveApache)
  skipLoudly('apache2 is not installed (Debian package apache2): the SSL metrics traffic test is skipped');
if (!haveCurl)
  skipLoudly('curl is not installed (Debian package curl): the SSL metrics traffic test is skipped');

const HOST = 'metrics.example.com';

/**
 * Issue 19, Enable SSL Metrics / SSL Metrics Interval: real Apache on Mailroom's unedited files logs
 * the tls field, the roll-up reads it and web/ssl-metrics answers per protocol: requests and
 * handshakes (one TLS 1.2 connection with three requests, two TLS 1.3 connections).
 */
describe.skipIf(!haveApache || !haveCurl)('SSL metrics from Apache traffic (issue 19)', () => {
  let t: TestContext;
  let apache: ApacheProcess;
  let httpPort: number;
  let httpsPort: number;
  const call = (method: 'GET' | 'POST', url: string, payload?: object) =>
    t.call({ method, url: `/api/${url}`, ...(payload ? { payload } : {}) });
  const confDir = () => path.join(t.deps.host.root, 'etc/apache2');
  const serverConf = () => readFileSync(path.join(confDir(), 'conf-available/zz-mailroom.conf'), 'utf8');
  const statsFormat = () => serverConf().match(/^LogFormat "(.*)" mailroom_stats$/m)?.[1] ?? '';

  const saveSsl = async (patch: object) => {
    const cur = (await call('GET', 'ssl/settings')).json<{ settings: object; version: number }>();
    const res = await call('POST', 'ssl/settings', {
      settings: { ...cur.settings, ...patch },
      version: cur.version,
    });
    expect(res.statusCode, res.body).toBe(200);
  };
  /** Saved, checked by `apache2 -t` and reloaded (the apply pipeline's outcome). */
  const saveSslOk = async (patch: object) => {
    await saveSsl(patch);
    const web = (await call('GET', 'apply')).json<{ target: string; state: string }[]>();
    const o = web.find((x) => x.target === 'web');
    expect(o?.state, JSON.stringify(o)).toBe('applied');
  };
  /** `apache2 -t` on the rendered files, as Apache itself reads them. */
  const configTest = () =>
    spawnSync('apache2', ['-t', '-d', confDir(), '-f', path.join(confDir(), 'apache2.conf')], {
      encoding: 'utf8',
    });
  const curl = (args: string[], urls: string[]) => {
    const r = spawnSync(
      'curl',
      // One -o per URL (curl pairs them in order); the URLs share one connection.
      [
        '-sk',
        '-w',
        '%{http_code} ',
        '--max-time',
        '10',
        ...args,
        ...urls.flatMap((u) => ['-o', '/dev/null', u]),
      ],
      { encoding: 'utf8' },
    );
    return r.stdout.trim().split(' ').map(Number);
  };
  const https = `https://${HOST}:`;
  const resolve = () => ['--resolve', `${HOST}:${httpsPort}:127.0.0.1`];
  const metrics = async () => {
    const res = await call('GET', 'web/ssl-metrics');
    expect(res.statusCode, res.body).toBe(200);
    return res.json<SslMetricsAnswer>();
  };
  /** Apache logs after answering: wait until the roll-up has the requests. */
  const metricsWith = async (requests: number) => {
    let m = await metrics();
    for (let i = 0; i < 50 && m.totals.requests < requests; i++) {
      await new Promise((r) => setTimeout(r, 100));
      m = await metrics();
    }
    return m;
  };

  beforeAll(async () => {
    httpPort = await freePort();
    httpsPort = await freePort();
    t = await startTestApp('sqlite', {
      env: { MAILROOM_HTTP_PORT: String(httpPort), MAILROOM_HTTPS_PORT: String(httpsPort) },
    });
    openForApache(t.dataDir);
    expect((await call('POST', 'web/settings/reset')).statusCode).toBe(200);
    // No health check handshakes beside the test's own requests.
    await saveSsl({ enableSslMetrics: true, sslMetricsInterval: 300, enableSslHealthChecks: false });
    const res = await call('POST', 'web/vhosts/add', {
      domain: HOST,
      serverName: HOST,
      documentRoot: `/var/www/${HOST}`,
      sslEnabled: true,
      sslCertificateId: null,
      redirectHttpToHttps: false,
      enableSecurityHeaders: false,
      enableCaching: false,
    });
    expect(res.statusCode, res.body).toBe(200);
    apache = new ApacheProcess(confDir(), path.join(t.deps.host.root, 'run/apache2/mailroom-apache2.pid'));
    await apache.start(httpPort);
  }, 90_000);
  afterAll(async () => {
    await apache?.stop();
    await t?.close();
  });

  it('counts requests and handshakes per protocol: one TLS 1.2 connection with 3 requests, 2 TLS 1.3 connections', async () => {
    // The administrator's format (combined, logging on by default), the tls field, the figures.
    expect(statsFormat()).toMatch(/\\" tls:\S+ %v %a %\{sec\}t %>s %B %D$/);
    expect(statsFormat()).toContain(` ${TLS_LOG_FIELD} %v `);
    const url = `${https}${httpsPort}/`;
    expect(curl([...resolve(), '--tlsv1.2', '--tls-max', '1.2'], [url, url, url])).toEqual([200, 200, 200]);
    expect(curl([...resolve(), '--tlsv1.3'], [url])).toEqual([200]);
    expect(curl([...resolve(), '--tlsv1.3'], [url])).toEqual([200]);
    // Plain HTTP (tls:-/-/0/-) is not an HTTPS request.
    expect(curl(['--resolve', `${HOST}:${httpPort}:127.0.0.1`], [`http://${HOST}:${httpPort}/`])).toEqual([
      200,
    ]);
    const m = await metricsWith(5);
    expect(m.enabled).toBe(true);
    expect(m.intervalSeconds).toBe(300);
    expect(m.protocols).toEqual([
      { protocol: 'TLSv1.2', requests: 3, handshakes: 1, resumed: 0 },
      { protocol: 'TLSv1.3', requests: 2, handshakes: 2, resumed: 0 },
    ]);
    expect(m.totals).toEqual({ requests: 5, handshakes: 3, resumed: 0 });
    expect(m.ciphers.map((c) => c.protocol).sort()).toEqual(['TLSv1.2', 'TLSv1.3']);
    for (const c of m.ciphers) expect(c.cipher).toMatch(/^[A-Z0-9_-]+$/);
    // Those went over HTTP/2 (the stream counts); over HTTP/1.1 the keep-alive count does.
    expect(curl([...resolve(), '--http1.1', '--tlsv1.2', '--tls-max', '1.2'], [url, url])).toEqual([
      200, 200,
    ]);
    const h1 = await metricsWith(7);
    expect(h1.protocols[0]).toEqual({ protocol: 'TLSv1.2', requests: 5, handshakes: 2, resumed: 0 });
  });

  it('metrics off: no tls field, Apache accepts the files, no figures', async () => {
    await saveSslOk({ enableSslMetrics: false });
    expect(statsFormat()).toMatch(/\\" %v %a %\{sec\}t %>s %B %D$/);
    const check = configTest();
    expect(check.status, check.stderr).toBe(0);
    const m = await metrics();
    expect(m.enabled).toBe(false);
    expect(m.protocols).toEqual([]);
  });

  it('metrics on with HTTPS off: no mod_ssl, so no tls field, and Apache accepts the files', async () => {
    await saveSslOk({ enableSslMetrics: true, enableHttps: false });
    expect(serverConf()).not.toContain('tls:');
    expect(statsFormat()).toMatch(/\\" %v %a %\{sec\}t %>s %B %D$/);
    const check = configTest();
    expect(check.status, check.stderr).toBe(0);
  });
});
