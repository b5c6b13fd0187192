import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openDatabase } from '../../../server/src/db/database.ts';
import { migrateToLatest } from '../../../server/src/db/migrate.ts';
import { makeKey, makeSelfSigned } from '../../../server/src/features/ssl/certificate-make.service.ts';
import { parseCertificate } from '../../../server/src/features/ssl/certificate.parser.ts';
import { ListCounts, listRows } from '../../../server/src/features/ssl/certificate-list.service.ts';
import {
  dueForRenewal,
  insertCertificate,
  listRowToCertificate,
  stats,
} from '../../../server/src/features/ssl/certificate.repository.ts';
import { SecretVault, VAULT_FILES } from '../../../server/src/security/secret-vault.ts';
import type { BenchRow, BenchSuite } from '../suite.ts';

const COUNT = Number(process.env.BENCH_SSL_CERTS ?? 10_000);
/** Distinct real certificates generated; the 10,000 stored ones are parsed from these PEMs. */
const DISTINCT = 200;
const PAGES = 300;

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)] ?? 0;
};
const ms = (v: number) => `${v.toFixed(v < 10 ? 2 : 0)} ms`;

const suite: BenchSuite = {
  name: 'ssl',
  description: `parse and store ${COUNT} certificates, list pages (p99), expiry scan (SQLite)`,
  async run(ctx) {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'bench-ssl-'));
    const database = openDatabase({ dataDir: dir });
    try {
      await migrateToLatest(database.db);
      const db = database.db;
      const vault = SecretVault.open(dir, VAULT_FILES.sslKeys);
      ctx.log(`generating ${DISTINCT} certificates`);
      const pems: { pem: string; key: string }[] = [];
      for (let i = 0; i < DISTINCT; i++) {
        const r = {
          domain: `host${i}.example.com`,
          keyAlgorithm: 'ECDSA' as const,
          keySize: 256,
          signatureAlgorithm: 'SHA256' as const,
          validityPeriod: 1 + ((i * 7) % 400),
          wildcardDomain: i % 5 === 0,
          sanDomains: i % 3 === 0 ? [`alt${i}.example.org`] : [],
          organizationName: '',
          organizationalUnit: '',
          country: '',
          state: '',
          city: '',
          email: '',
        };
        const key = await makeKey(r);
        pems.push({ pem: await makeSelfSigned(r, key), key: vault.seal(key.keyPem) });
      }
      ctx.log(`parsing and storing ${COUNT}`);
      const t0 = performance.now();
      let parseMs = 0;
      for (let i = 0; i < COUNT; i += 500) {
        await db.transaction().execute(async (trx) => {
          for (let j = i; j < Math.min(COUNT, i + 500); j++) {
            const src = pems[j % DISTINCT]!;
            const p0 = performance.now();
            const leaf = parseCertificate(src.pem);
            parseMs += performance.now() - p0;
            await insertCertificate(trx, {
              leaf,
              chainPem: '',
              keyEnc: src.key,
              source: 'self-signed',
              autoRenew: true,
              renewal: null,
            });
          }
        });
      }
      const storeMs = performance.now() - t0;
      const times: number[] = [];
      /** CPU time of this process per page: the work itself, without the waits of a loaded machine. */
      const cpu: number[] = [];
      const filters = [
        {},
        { status: 'expiring' as const },
        { status: 'valid' as const },
        { q: 'host1' },
        { issuer: 'Self-signed' },
      ];
      // What the list route does: each filter's pages walked by cursor (keyset), totals from the
      // per-change count cache; a first page of each filter pays its count once.
      // Warm-up (JIT, prepared statements) with a throwaway cache: the measured pages still pay
      // each filter's count once, cold.
      for (const f of filters) await listRows(db, { ...f, limit: 50 }, 30, new ListCounts());
      const counts = new ListCounts();
      const cursors = new Map<number, string | undefined>();
      for (let i = 0; i < PAGES; i++) {
        const which = i % filters.length;
        const f = filters[which]!;
        const cursor = cursors.get(which);
        const a = performance.now();
        const c0 = process.cpuUsage();
        const page = await listRows(db, { ...f, limit: 50, ...(cursor ? { cursor } : {}) }, 30, counts);
        page.items.map((r) => listRowToCertificate(r, 30, []));
        times.push(performance.now() - a);
        const c1 = process.cpuUsage(c0);
        cpu.push((c1.user + c1.system) / 1000);
        cursors.set(which, page.next);
      }
      const s0 = performance.now();
      const dash = await stats(db, 30);
      const due = await dueForRenewal(db, 30, true);
      const scanMs = performance.now() - s0;
      ctx.log(`expiring ${dash.expiringSoon}, due ${due.length}`);
      const p99 = pct(times, 99);
      ctx.log(
        `load average ${os
          .loadavg()
          .map((l) => l.toFixed(1))
          .join(' ')} on ${os.cpus().length} cores`,
      );
      return [
        { measure: `parse one certificate (mean of ${COUNT})`, value: ms(parseMs / COUNT), raw: { parseMs } },
        { measure: `parse + store ${COUNT} certificates`, value: ms(storeMs) },
        { measure: `list page of 50 of ${COUNT}, p50`, value: ms(pct(times, 50)) },
        { measure: `list page of 50 of ${COUNT}, p99`, value: ms(p99), goal: '≤ 10 ms', pass: p99 <= 10 },
        { measure: `list page of 50 of ${COUNT}, p99 CPU time`, value: ms(pct(cpu, 99)) },
        { measure: `expiry scan of ${COUNT} (counts + due list)`, value: ms(scanMs) },
      ] satisfies BenchRow[];
    } finally {
      await database.close();
      rmSync(dir, { recursive: true, force: true });
    }
  },
};

export default suite;
