import path from 'node:path';
import { measureLoad, type LoadResult } from '../lib/http-load.ts';
import { signInKey, startMailroom, startScriptServer } from '../lib/servers.ts';
import type { BenchContext, BenchRow } from '../suite.ts';

const GOAL = 0.5;

const figure = (r: LoadResult) =>
  `${Math.round(r.rps).toLocaleString('en-US')} req/s (p50 ${r.p50ms} ms, p99 ${r.p99ms} ms)`;

const raw = (r: LoadResult) => ({ rps: r.rps, p50ms: r.p50ms, p99ms: r.p99ms, requests: r.requests });

/**
 * Small authenticated reads on the real server, as a ratio to a bare Fastify route measured in the
 * same run. /auth/status and /api/audit?limit=1 carry the whole request path (session lookup in the
 * database, guard, zod validation and serialisation, metrics, security headers); /api/system/status
 * adds systeminformation's reads of the machine, reported for information.
 */
export async function apiThroughput(ctx: BenchContext): Promise<BenchRow[]> {
  const bare = await startScriptServer(ctx.root, path.join(ctx.root, 'bench/src/foundation/bare-server.ts'));
  const mailroom = await startMailroom(ctx.outDir);
  try {
    const key = await signInKey(mailroom.baseURL);
    const auth = { authorization: `Bearer ${key}` };
    ctx.log('load: bare Fastify GET /bare');
    const baseline = await measureLoad({ url: `${bare.baseURL}/bare` });
    const targets = [
      { measure: 'GET /auth/status with bearer key', path: '/auth/status', goal: true },
      { measure: 'GET /api/audit?limit=1 (auth guard + query)', path: '/api/audit?limit=1', goal: true },
      { measure: 'GET /api/system/status (reads the machine)', path: '/api/system/status', goal: false },
    ];
    const rows: BenchRow[] = [
      { measure: 'bare Fastify GET /bare (baseline)', value: figure(baseline), raw: raw(baseline) },
    ];
    for (const t of targets) {
      ctx.log(`load: GET ${t.path}`);
      const r = await measureLoad({ url: mailroom.baseURL + t.path, headers: auth });
      const ratio = r.rps / baseline.rps;
      rows.push({ measure: t.measure, value: figure(r), raw: raw(r) });
      rows.push({
        measure: `  ratio to bare`,
        value: ratio.toFixed(2),
        ...(t.goal ? { goal: `≥ ${GOAL.toFixed(2)}`, pass: ratio >= GOAL } : {}),
        raw: { ratio },
      });
    }
    return rows;
  } finally {
    await mailroom.stop();
    await bare.stop();
  }
}
