import {
  type AcmeIssueRequest,
  createAcmeIssuer,
} from '../../../server/src/features/ssl/acme/acme-issuer.service.ts';
import { createCertificateKey } from '../../../server/src/features/ssl/acme/acme-keys.rules.ts';
import { ACME_LAB_MISSING, startAcmeLab } from '../../../server/test/acme-lab.ts';
import type { BenchRow, BenchSuite } from '../suite.ts';

const HTTP_ORDERS = Number(process.env.BENCH_ACME_HTTP_ORDERS ?? 10);
const DNS_ORDERS = Number(process.env.BENCH_ACME_DNS_ORDERS ?? 5);
const ZONE = 'acme-bench.test';

const ms = (v: number) => `${v.toFixed(v < 10 ? 1 : 0)} ms`;
const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)] ?? 0;
};
const row = (measure: string, xs: number[]): BenchRow => ({
  measure: `${measure} (p50 / p95, n=${xs.length})`,
  value: `${ms(pct(xs, 50))} / ${ms(pct(xs, 95))}`,
  raw: { p50: pct(xs, 50), p95: pct(xs, 95), n: xs.length },
});

/**
 * ACME issuance against Debian's pebble on this machine (no artificial validation delay): whole
 * orders over HTTP-01 (Mailroom's listener) and DNS-01 (a TXT record published through the DNS
 * apply pipeline and served by named), the DNS publish-to-served part, and certificate key
 * generation per algorithm. The CA is local, so the figures are Mailroom's own cost plus pebble's.
 */
const suite: BenchSuite = {
  name: 'acme',
  description: 'ACME orders against pebble (HTTP-01, DNS-01 through BIND) and key generation',
  async run(ctx) {
    const rows: BenchRow[] = [];
    for (const [label, key] of [
      ['RSA 2048', { algorithm: 'RSA', size: 2048 }],
      ['RSA 3072', { algorithm: 'RSA', size: 3072 }],
      ['RSA 4096', { algorithm: 'RSA', size: 4096 }],
      ['ECDSA P-256', { algorithm: 'ECDSA', size: 256 }],
      ['ECDSA P-384', { algorithm: 'ECDSA', size: 384 }],
    ] as const) {
      const times: number[] = [];
      for (let i = 0; i < 5; i++) {
        const t0 = performance.now();
        await createCertificateKey(key);
        times.push(performance.now() - t0);
      }
      rows.push(row(`certificate key generation, ${label}`, times));
    }

    if (ACME_LAB_MISSING) {
      ctx.log(`${ACME_LAB_MISSING} missing: the ACME order figures are skipped`);
      rows.push({ measure: 'ACME orders against pebble', value: `skipped: ${ACME_LAB_MISSING} missing` });
      return rows;
    }
    const lab = await startAcmeLab({ zone: ZONE, addresses: ['www'], validitySeconds: 3600 });
    try {
      const issue = createAcmeIssuer(lab.deps);
      const order = async (over: Partial<AcmeIssueRequest>) => {
        const marks: { detail: string; at: number }[] = [];
        const t0 = performance.now();
        await issue(
          {
            directoryUrl: lab.directoryUrl,
            contactEmail: 'hostmaster@example.org',
            domains: [`www.${ZONE}`],
            challenge: 'http-01',
            key: { algorithm: 'ECDSA', size: 256 },
            ...over,
          },
          (_stage, detail) => marks.push({ detail, at: performance.now() }),
          new AbortController().signal,
        );
        return { total: performance.now() - t0, marks };
      };
      // The first order registers the account; it is measured apart.
      rows.push(row('first order incl. account registration, HTTP-01', [(await order({})).total]));
      const http: number[] = [];
      for (let i = 0; i < HTTP_ORDERS; i++) http.push((await order({})).total);
      rows.push(row('ACME order, 1 name, HTTP-01 via Mailroom listener', http));
      const dns: number[] = [];
      const served: number[] = [];
      for (let i = 0; i < DNS_ORDERS; i++) {
        const r = await order({ challenge: 'dns-01', dnsProvider: 'mailroom' });
        dns.push(r.total);
        const added = r.marks.find((m) => /added to/.test(m.detail));
        const seen = r.marks.find((m) => /served$/.test(m.detail));
        if (added && seen) served.push(seen.at - added.at);
      }
      rows.push(row('ACME order, 1 name, DNS-01 via own zone + BIND', dns));
      rows.push(row('DNS-01 TXT: pipeline commit+reload to served by named', served));
    } finally {
      await lab.close();
    }
    return rows;
  },
};

export default suite;
