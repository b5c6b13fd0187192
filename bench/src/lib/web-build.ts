import { spawnSync } from 'node:child_process';
import { webBuildReason } from '../../../scripts/lib/freshness.mjs';

/** Builds the web app when web/dist is missing or older than its sources (as `npm start` does). */
export function ensureWebBuild(root: string, log: (m: string) => void): void {
  const reason = webBuildReason(root);
  if (!reason) return;
  log(`${reason}: building the web app`);
  const r = spawnSync('npm', ['run', 'build', '-w', 'web'], { cwd: root, stdio: 'inherit' });
  if (r.status !== 0) throw new Error(`the web build failed (exit ${r.status ?? r.signal})`);
}

/**
 * The console the browser suites measure: this tree's build (made when stale), or with
 * BENCH_WEB_DIST another build's dist folder (e.g. main's, for a back-to-back comparison on the
 * same server and in the same minutes). Answers the server's environment for it.
 */
export function webDistEnv(ctx: { root: string; log: (m: string) => void }): Record<string, string> {
  const other = process.env.BENCH_WEB_DIST;
  if (other) {
    ctx.log(`measuring the console built in ${other}`);
    return { MAILROOM_WEB_DIST: other };
  }
  ensureWebBuild(ctx.root, ctx.log);
  return {};
}
