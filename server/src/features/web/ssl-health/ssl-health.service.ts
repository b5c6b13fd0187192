import { X509Certificate } from 'node:crypto';
import tls from 'node:tls';
import type { SslHealthAnswer, SslHealthCheck } from '@mailroom/contract/web/ssl-health';
import { readMachineFile } from '../../../host/apache-host.ts';
import type { WebSslHealthTable } from '../../../db/web.tables.ts';
import { resolveDefaultCertificate } from '../settings/ssl-refusals.service.ts';
import { servedPort } from '../stack/apache.layout.ts';
import type { WebContext } from '../stack/web.context.ts';
import { DEFAULT_CERT, hostValues } from '../stack/web-render.service.ts';
import { allVhosts, hostNames } from '../vhosts/vhost.repository.ts';
import { lastSslHealthRound, listSslHealth, replaceSslHealth } from './ssl-health.repository.ts';

const DAY = 86_400_000;
const HANDSHAKE_TIMEOUT_MS = 10_000;
/** The scheduler looks at the settings this often (a changed interval applies within it). */
const TICK_SECONDS = 5;

/** A served HTTPS name: where to shake hands and which certificate it should get. */
interface Target {
  hostName: string;
  domain: string;
  address: string;
  port: number;
  expected: string | null;
}

/** The outcome of one handshake. */
export interface Handshake {
  ok: boolean;
  fingerprint: string | null;
  notAfter: string | null;
  protocol: string | null;
  error: string | null;
}

const fingerprintOf = (pem: string | null): string | null => {
  try {
    return pem ? new X509Certificate(pem).fingerprint256 : null;
  } catch {
    return null;
  }
};

/** A real TLS handshake with SNI: the served certificate and protocol, or why it failed. */
export function handshake(address: string, port: number, servername: string): Promise<Handshake> {
  return new Promise((resolve) => {
    let done = false;
    const finish = (h: Handshake, s?: tls.TLSSocket) => {
      if (done) return;
      done = true;
      s?.destroy();
      resolve(h);
    };
    const s = tls.connect({ host: address, port, servername, rejectUnauthorized: false }, () => {
      const c = s.getPeerCertificate();
      const ok = Boolean(c?.fingerprint256);
      finish(
        {
          ok,
          fingerprint: c?.fingerprint256 ?? null,
          notAfter: c?.valid_to ? new Date(c.valid_to).toISOString() : null,
          protocol: s.getProtocol(),
          error: ok ? null : 'No certificate was served',
        },
        s,
      );
    });
    s.setTimeout(HANDSHAKE_TIMEOUT_MS, () =>
      finish(
        {
          ok: false,
          fingerprint: null,
          notAfter: null,
          protocol: null,
          error: `No handshake within ${HANDSHAKE_TIMEOUT_MS / 1000} s`,
        },
        s,
      ),
    );
    s.on('error', (err: NodeJS.ErrnoException) =>
      finish({ ok: false, fingerprint: null, notAfter: null, protocol: null, error: err.message }, s),
    );
  });
}

/** Every served HTTPS host name (SSL on, HTTPS on) with the certificate it should be served. */
async function targets(ctx: WebContext): Promise<Target[]> {
  const policy = ctx.tlsPolicy ? await ctx.tlsPolicy(ctx.db) : null;
  const extras = policy?.extras;
  if (extras?.https === false) return [];
  const sslPort = extras?.serverPort ?? 443;
  const chosen = await resolveDefaultCertificate(extras?.defaultCertificate);
  const defaultFingerprint = chosen
    ? fingerprintOf(await readMachineFile(chosen.certificateFile))
    : fingerprintOf(await ctx.deps.host.readFile(DEFAULT_CERT.cert));
  const out: Target[] = [];
  for (const row of await allVhosts(ctx.db)) {
    const v = hostValues(row, sslPort);
    if (!v.sslEnabled || v.status === 'inactive') continue;
    let expected: string | null;
    if (v.sslCertificateId !== null) {
      const c = ctx.tls ? await ctx.tls(v.sslCertificateId, ctx.db) : null;
      if (!c) continue;
      expected = c.fingerprint;
    } else if (v.sslCertificate && v.sslPrivateKey)
      expected = fingerprintOf(await readMachineFile(v.sslCertificate));
    else expected = defaultFingerprint;
    const address = v.ipAddress === '*' ? '127.0.0.1' : v.ipAddress;
    const port = servedPort(ctx.mode, v.sslPort ?? sslPort);
    for (const hostName of hostNames(v)) out.push({ hostName, domain: v.domain, address, port, expected });
  }
  return out;
}

/**
 * One round of SSL health checks: a handshake with SNI with every served HTTPS host name on
 * Apache's HTTPS port (a few at a time), the results replacing the last round's.
 */
export async function runSslHealthChecks(ctx: WebContext, now = Date.now()): Promise<SslHealthCheck[]> {
  const list = await targets(ctx);
  const rows: WebSslHealthTable[] = [];
  const checkedAt = new Date(now).toISOString();
  for (let i = 0; i < list.length; i += 8) {
    const batch = list.slice(i, i + 8);
    const results = await Promise.all(batch.map((t) => handshake(t.address, t.port, t.hostName)));
    batch.forEach((t, k) => {
      const h = results[k]!;
      rows.push({
        host_name: t.hostName,
        domain: t.domain,
        port: t.port,
        checked_at: checkedAt,
        ok: h.ok ? 1 : 0,
        fingerprint: h.fingerprint,
        expected_fingerprint: t.expected,
        not_after: h.notAfter,
        days_left: h.notAfter ? Math.floor((Date.parse(h.notAfter) - now) / DAY) : null,
        protocol: h.protocol,
        error: h.error,
      });
    });
  }
  await replaceSslHealth(ctx.db, rows);
  return listSslHealth(ctx.db);
}

/** What GET web/ssl-health answers. */
export async function sslHealthAnswer(ctx: WebContext): Promise<SslHealthAnswer> {
  const extras = ctx.tlsPolicy ? (await ctx.tlsPolicy(ctx.db)).extras : undefined;
  const interval = extras?.healthCheckInterval ?? null;
  return {
    enabled: interval !== null,
    intervalSeconds: interval ?? 0,
    checks: interval !== null ? await listSslHealth(ctx.db) : [],
  };
}

/** A system alert condition (the shape of the alerts engine, wired in app.ts). */
export interface SslAlertCondition {
  key: string;
  type: string;
  severity: 'warning' | 'critical';
  title: string;
  message: string;
}

/**
 * Enable SSL Alerts: a served certificate within SSL Alert Threshold days of expiry (critical once
 * expired), a served certificate that is not the chosen one, a failed handshake. From the last
 * round of health checks; an alert resolves when its condition is over.
 */
export async function sslAlertConditions(ctx: WebContext): Promise<SslAlertCondition[]> {
  const extras = ctx.tlsPolicy ? (await ctx.tlsPolicy(ctx.db)).extras : undefined;
  const threshold = extras?.alertThresholdDays ?? null;
  if (threshold === null || extras?.healthCheckInterval == null) return [];
  const out: SslAlertCondition[] = [];
  for (const c of await listSslHealth(ctx.db)) {
    const where = `${c.hostName} (port ${c.port})`;
    if (!c.ok)
      out.push({
        key: `ssl-handshake:${c.hostName}`,
        type: 'ssl',
        severity: 'critical',
        title: `SSL handshake failed: ${c.hostName}`,
        message: `The TLS handshake with ${where} failed: ${c.error ?? 'unknown error'}`,
      });
    if (c.mismatch)
      out.push({
        key: `ssl-mismatch:${c.hostName}`,
        type: 'ssl',
        severity: 'warning',
        title: `Wrong certificate served: ${c.hostName}`,
        message: `Apache serves ${where} the certificate ${c.fingerprint}, not the chosen ${c.expectedFingerprint}`,
      });
    if (c.ok && c.daysLeft !== null && c.daysLeft < threshold)
      out.push({
        key: `ssl-expiry:${c.hostName}`,
        type: 'ssl',
        severity: c.daysLeft < 0 ? 'critical' : 'warning',
        title: `Served certificate expiring: ${c.hostName}`,
        message:
          c.daysLeft < 0
            ? `The certificate served to ${where} expired on ${c.notAfter}`
            : `The certificate served to ${where} expires in ${c.daysLeft} days (${c.notAfter}); SSL Alert Threshold is ${threshold} days`,
      });
  }
  return out;
}

/**
 * One tick of the scheduler: a round when Enable SSL Health Checks is on and the last round (any
 * instance's: its time is in the table) is older than the interval. Decided under a lock, so two
 * instances never shake hands twice. Answers the seconds until the next tick.
 */
export async function sslHealthTick(ctx: WebContext, now = Date.now()): Promise<number> {
  const extras = ctx.tlsPolicy ? (await ctx.tlsPolicy(ctx.db)).extras : undefined;
  const interval = extras?.healthCheckInterval ?? null;
  if (interval === null) return TICK_SECONDS;
  const run = async () => {
    if (now - (await lastSslHealthRound(ctx.db)) >= interval * 1000) await runSslHealthChecks(ctx, now);
  };
  if (ctx.deps.locks) await ctx.deps.locks.withLock('web.ssl-health', run, { waitMs: 5_000 });
  else await run();
  return Math.min(interval, TICK_SECONDS);
}
