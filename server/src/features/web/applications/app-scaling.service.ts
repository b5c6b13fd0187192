import { recordAudit } from '../../../http/audit-log.repository.ts';
import {
  type AppRow,
  appsWithStatus,
  findAppById,
  patchAppRuntime,
  rowConfig,
} from './application.repository.ts';
import type { AppLifecycle } from './app-lifecycle.service.ts';
import { appLogFile, servesFiles } from './app.layout.ts';
import {
  instanceTarget,
  launchInstances,
  type RunningRelease,
  stopInstances,
} from './app-runtime.service.ts';
import { findRelease } from './release.repository.ts';

/**
 * The scaling rule of web applications (issue 20), checked every MAILROOM_APP_SCALE_TICK_SECONDS
 * (30 s) by the applications module for each active app with Enable Load Balancing:
 *
 * - load = the requests Apache logged for the app's domain in the current and the previous minute
 *   (the access-log roll-up, web_traffic_minutes), divided by 2 (per minute), divided by the
 *   number of running instances;
 * - with Enable Scaling: load above SCALE_RULE.upPerInstance adds one instance (health-checked
 *   before Apache's balancer gets it); load below SCALE_RULE.downPerInstance on
 *   SCALE_RULE.downAfterChecks checks in a row removes one (taken out of the balancer by a
 *   graceful reload first, drained for Shutdown Timeout, then stopped);
 * - never below Min Instances nor above Max Instances: a count outside them (the fields were
 *   edited) is brought back within them whether Enable Scaling is on or not; without Enable Load
 *   Balancing the app runs one instance.
 *
 * Every change is audited as `web.app.scale` (actor: the server) with the load that caused it.
 */
export const SCALE_RULE = {
  windowMinutes: 2,
  upPerInstance: 300,
  downPerInstance: 60,
  downAfterChecks: 3,
} as const;

export interface ScaleInput {
  current: number;
  enableLoadBalancing: boolean;
  enableScaling: boolean;
  minInstances: number;
  maxInstances: number;
  /** Requests per minute to the whole app (all instances). */
  requestsPerMinute: number;
  /** Low-load checks in a row so far. */
  lowChecks: number;
}

export interface ScaleDecision {
  target: number;
  lowChecks: number;
  reason: string;
}

/** The rule above as a pure function (no clock, no I/O: the unit test drives it with figures). */
export function scaleDecision(i: ScaleInput): ScaleDecision {
  const bounded = instanceTarget(i, i.current);
  if (bounded !== i.current)
    return {
      target: bounded,
      lowChecks: 0,
      reason: i.enableLoadBalancing
        ? `${i.current} instance(s) outside Min Instances ${i.minInstances}..Max Instances ${Math.max(i.minInstances, i.maxInstances)}`
        : 'Enable Load Balancing is off: one instance',
    };
  if (!i.enableLoadBalancing || !i.enableScaling || i.current < 1)
    return { target: i.current, lowChecks: 0, reason: '' };
  const perInstance = i.requestsPerMinute / i.current;
  const load = `${Math.round(perInstance)} requests per instance per minute`;
  if (perInstance > SCALE_RULE.upPerInstance && i.current < i.maxInstances)
    return {
      target: i.current + 1,
      lowChecks: 0,
      reason: `${load} > ${SCALE_RULE.upPerInstance}`,
    };
  if (perInstance < SCALE_RULE.downPerInstance && i.current > Math.max(1, i.minInstances)) {
    const low = i.lowChecks + 1;
    if (low >= SCALE_RULE.downAfterChecks)
      return {
        target: i.current - 1,
        lowChecks: 0,
        reason: `${load} < ${SCALE_RULE.downPerInstance} on ${low} checks in a row`,
      };
    return { target: i.current, lowChecks: low, reason: '' };
  }
  return { target: i.current, lowChecks: 0, reason: '' };
}

/** Requests per minute per domain over SCALE_RULE.windowMinutes (the module reads the roll-up). */
export type TrafficReader = (windowMinutes: number) => Promise<Map<string, number>>;

/** Applies the rule to the running apps: scale up health-gated, scale down drained, audited. */
export class AppScaler {
  private readonly low = new Map<number, number>();
  private busy = false;

  constructor(
    private readonly life: AppLifecycle,
    private readonly traffic: TrafficReader,
  ) {}

  private get svc() {
    return this.life.apps;
  }

  /** One check of every active app (a check still running makes this one a no-op). */
  async tick(): Promise<void> {
    if (this.busy) return;
    this.busy = true;
    try {
      const rows = (await appsWithStatus(this.svc.db, ['active'], { running: true })).filter(
        (r) => !servesFiles(r.type),
      );
      if (!rows.length) return;
      const perMinute = await this.traffic(SCALE_RULE.windowMinutes);
      for (const row of rows) {
        const id = Number(row.id);
        const running = this.svc.runtime.instances(id);
        if (!running.length) continue;
        const c = rowConfig(row);
        const d = scaleDecision({
          current: running.length,
          enableLoadBalancing: c.enableLoadBalancing,
          enableScaling: c.enableScaling,
          minInstances: c.minInstances,
          maxInstances: c.maxInstances,
          requestsPerMinute: perMinute.get(row.domain) ?? 0,
          lowChecks: this.low.get(id) ?? 0,
        });
        this.low.set(id, d.lowChecks);
        if (d.target > running.length) await this.up(row, running, d.target - running.length, d.reason);
        else if (d.target < running.length)
          await this.down(row, running, running.length - d.target, d.reason);
      }
    } finally {
      this.busy = false;
    }
  }

  /** The app is still active on the same release, and no deploy claimed it meanwhile. */
  private async unchanged(id: number, releaseId: number): Promise<AppRow | null> {
    const fresh = await findAppById(this.svc.db, id);
    return fresh && fresh.status === 'active' && Number(fresh.current_release_id) === releaseId
      ? fresh
      : null;
  }

  private async switchAudited(
    row: AppRow,
    all: RunningRelease[],
    from: number,
    reason: string,
  ): Promise<void> {
    const ports = all.map((r) => r.port);
    await this.life.switchTo(
      row,
      { running_port: ports[0]!, instance_ports: JSON.stringify(ports) },
      'active',
      (trx) =>
        recordAudit(trx, {
          actor: null,
          action: 'web.app.scale',
          target: row.name,
          outcome: 'success',
          details: {
            from,
            to: all.length,
            reason,
            instances: all.map((r) => ({ id: r.instance, port: r.port })),
          },
        }),
    );
  }

  private async up(row: AppRow, running: RunningRelease[], n: number, reason: string): Promise<void> {
    const id = Number(row.id);
    const c = rowConfig(row);
    const releaseId = running[0]!.releaseId;
    const rel = await findRelease(this.svc.db, id, releaseId);
    if (!rel?.path) return;
    const host = this.svc.ctx.deps.host;
    const launched = await launchInstances(c, n, {
      releaseId,
      cwd: host.path(rel.path),
      env: this.svc.openEnv(rel.env_sealed),
      runAs: await this.life.runAs(c.name),
      logFile: host.path(appLogFile(c)),
      skipPorts: this.svc.runtime.ports(),
      log: () => undefined,
      systemMode: host.root === '/',
      firstInstance: Math.max(...running.map((r) => r.instance)) + 1,
    }).catch(() => null);
    if (!launched) return; // not healthy: nothing changed, the next check tries again
    const fresh = await this.unchanged(id, releaseId);
    if (!fresh) {
      await stopInstances(launched.running, 1000);
      return;
    }
    for (const r of launched.running)
      r.proc.onCrash = (code, tail) => {
        void patchAppRuntime(this.svc.db, id, {
          status_message: `Instance ${r.instance} exited (code ${code ?? 'signal'}); restarting\n${tail.slice(-10).join('\n')}`,
        }).catch(() => undefined);
      };
    const all = [...this.svc.runtime.instances(id), ...launched.running];
    for (const r of launched.running) this.svc.runtime.add(id, r);
    try {
      await this.switchAudited(fresh, all, running.length, reason);
    } catch {
      for (const r of launched.running) this.svc.runtime.remove(id, r);
      await stopInstances(launched.running, 1000);
    }
  }

  private async down(row: AppRow, running: RunningRelease[], n: number, reason: string): Promise<void> {
    const id = Number(row.id);
    const c = rowConfig(row);
    const fresh = await this.unchanged(id, running[0]!.releaseId);
    if (!fresh) return;
    // The newest instances go; the first (the app's running port) stays.
    const leaving = [...running].sort((a, b) => b.instance - a.instance).slice(0, n);
    const staying = running.filter((r) => !leaving.includes(r));
    for (const r of leaving) this.svc.runtime.remove(id, r);
    try {
      await this.switchAudited(fresh, staying, running.length, reason);
    } catch {
      for (const r of leaving) this.svc.runtime.add(id, r);
      return;
    }
    // Out of the balancer since the graceful reload: requests in flight finish, then it stops.
    if (c.enableGracefulShutdown && c.shutdownTimeout > 0)
      await new Promise((r) => setTimeout(r, c.shutdownTimeout * 1000));
    await stopInstances(leaving, c.shutdownTimeout * 1000);
  }
}
