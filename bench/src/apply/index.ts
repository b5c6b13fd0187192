import { signInKey, startMailroom } from '../lib/servers.ts';
import type { BenchRow, BenchSuite } from '../suite.ts';

const SAVES = 10;
// Saves alone first (wall time), then saves with a reader running (the reader costs CPU too).
const ALONE = 5;
const READ_GOAL_MS = 50;

const quantile = (xs: number[], q: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))] ?? NaN;
};

/**
 * Mail settings saves through the apply pipeline on the real server (real postconf, postmap and
 * doveconf when installed), each with a reader fetching a mailbox page back to back for as long as
 * the save runs: the save's wall time, and how long a read waits meanwhile.
 */
const suite: BenchSuite = {
  name: 'apply',
  description: 'mail settings save wall time (real checkers) and the latency of reads running meanwhile',
  async run(ctx) {
    const server = await startMailroom(ctx.outDir);
    try {
      const key = await signInKey(server.baseURL);
      const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
      const api = (path: string, init: RequestInit = {}) =>
        fetch(`${server.baseURL}/api/${path}`, { ...init, headers });
      const aloneMs: number[] = [];
      const saveMs: number[] = [];
      const readMs: number[] = [];
      for (let i = 0; i < ALONE + SAVES; i++) {
        const withReader = i >= ALONE;
        const current = (await (await api('mail/settings')).json()) as {
          version: number;
          settings: { maxRecipients: number };
        };
        let saving = withReader;
        const reader = (async () => {
          while (saving) {
            const t0 = performance.now();
            const res = await api('mail/users?limit=25');
            await res.arrayBuffer();
            if (saving) readMs.push(performance.now() - t0);
          }
        })();
        const t0 = performance.now();
        const res = await api('mail/settings', {
          method: 'POST',
          body: JSON.stringify({
            version: current.version,
            settings: { ...current.settings, maxRecipients: 100 + (i % 2) },
          }),
        });
        const body = await res.text();
        const ms = performance.now() - t0;
        (withReader ? saveMs : aloneMs).push(ms);
        saving = false;
        await reader;
        if (!res.ok) throw new Error(`save ${i} answered ${res.status}: ${body}`);
        ctx.log(`save ${i + 1}/${ALONE + SAVES}${withReader ? ' (with reader)' : ''}: ${ms.toFixed(0)} ms`);
      }
      const readP99 = quantile(readMs, 0.99);
      const rows: BenchRow[] = [
        {
          measure: `mail settings save alone, wall time (median of ${ALONE})`,
          value: `${quantile(aloneMs, 0.5).toFixed(0)} ms`,
          raw: { medianMs: quantile(aloneMs, 0.5), maxMs: Math.max(...aloneMs) },
        },
        {
          measure: `mail settings save with reads running, wall time (median of ${SAVES})`,
          value: `${quantile(saveMs, 0.5).toFixed(0)} ms`,
          raw: { medianMs: quantile(saveMs, 0.5), maxMs: Math.max(...saveMs) },
        },
        {
          measure: `read during a save: p50 / p99 / max (${readMs.length} reads)`,
          value: `${quantile(readMs, 0.5).toFixed(1)} / ${readP99.toFixed(1)} / ${Math.max(...readMs).toFixed(1)} ms`,
          goal: `p99 < ${READ_GOAL_MS} ms`,
          pass: readP99 < READ_GOAL_MS,
          raw: { p50: quantile(readMs, 0.5), p99: readP99, max: Math.max(...readMs), reads: readMs.length },
        },
      ];
      return rows;
    } finally {
      await server.stop();
    }
  },
};

export default suite;
