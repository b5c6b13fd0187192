import path from 'node:path';
import { createHash } from 'node:crypto';
import { appMessages, splitCommand, type WebApplication } from '@mailroom/contract/web/applications';
import { ensureAppUser, probeHttp, reapOrphanedApps, type RunAs } from '../../../host/app-process.ts';
import { conflict } from '../../../http/errors.ts';
import { siteAvailablePath } from '../stack/apache.layout.ts';
import { findById, rowValues, updateVhost } from '../vhosts/vhost.repository.ts';
import {
  type AppRow,
  type AppRuntimePatch,
  appsWithStatus,
  patchAppRuntime,
  rowConfig,
} from './application.repository.ts';
import type { ApplicationService } from './application.service.ts';
import { appLogFile, servesFiles, vhostValuesFor } from './app.layout.ts';
import {
  awaitHealthy,
  healthBudgetMs,
  instanceTarget,
  launchInstances,
  stopInstances,
} from './app-runtime.service.ts';
import { findRelease } from './release.repository.ts';

const HEALTH_FAILED = 'Health check failed:';
/** The Restart Command may run this long at least (else Shutdown Timeout + Health Check Timeout). */
export const RESTART_COMMAND_MIN_MS = 10_000;

/**
 * The reason of an app's error in one line: a failed deploy's "Failed: …" line (its message is the
 * deploy log's tail), else the message's first line (a failed check, an exit, a stop mid-deploy).
 */
function alertReason(message: string): string {
  const lines = message.split('\n').filter((l) => l.trim());
  return lines.findLast((l) => /\bFailed: /.test(l)) ?? lines[0] ?? '';
}

/** An alert condition in the shape of the system alerts (wired in app.ts). */
export interface AppAlertCondition {
  key: string;
  type: string;
  severity: 'critical';
  title: string;
  message: string;
}

/**
 * Running applications: start/stop/restart/toggle, the switch of Apache to a release, the health
 * checks that keep running, the alerts, and the resume at Mailroom's start.
 */
export class AppLifecycle {
  constructor(readonly apps: ApplicationService) {}

  private get db() {
    return this.apps.db;
  }

  private get runtime() {
    return this.apps.runtime;
  }

  /**
   * Points the app's virtual host at `runningPort` (null: 503), or its balancer at every port of
   * `instance_ports`, in one apply (with `also`'s writes, e.g. an audit line, in its transaction);
   * answers the file's hash.
   */
  async switchTo(
    row: AppRow,
    patch: AppRuntimePatch,
    vhostStatus: 'active' | 'inactive',
    also?: (trx: Parameters<typeof patchAppRuntime>[0]) => Promise<void>,
  ): Promise<{ row: AppRow; hash: string | null }> {
    const c = rowConfig(row);
    const vhost = await findById(this.db, Number(row.vhost_id));
    const report = await this.apps.ctx.apply({
      change: async (trx) => {
        if (vhost)
          await updateVhost(trx, Number(row.vhost_id), vhostValuesFor(c, vhostStatus, rowValues(vhost)));
        if (also) await also(trx);
        return patchAppRuntime(trx, Number(row.id), patch);
      },
      only: () => [c.domain],
    });
    const text = await this.apps.ctx.deps.host.readFile(siteAvailablePath(c.domain));
    return {
      row: report.value,
      hash: text === null ? null : createHash('sha256').update(text).digest('hex'),
    };
  }

  async runAs(name: string): Promise<RunAs> {
    return (await ensureAppUser(name)).runAs;
  }

  /** Starts the live release (a process type: a fresh process, health-checked, then Apache switched to it). */
  async start(name: string): Promise<WebApplication> {
    const row = await this.apps.row(name);
    if (row.status === 'deploying') throw conflict(appMessages.busy(name));
    if (row.current_release_id === null) throw conflict(appMessages.noRelease(name));
    const c = rowConfig(row);
    if (servesFiles(c.type)) {
      const out = await this.switchTo(row, { status: 'active', status_message: '' }, 'active');
      return this.apps.view(out.row);
    }
    const rel = await findRelease(this.db, Number(row.id), Number(row.current_release_id));
    if (!rel?.path) throw conflict(appMessages.noRelease(name));
    const host = this.apps.ctx.deps.host;
    const old = this.runtime.instances(Number(row.id));
    // Nothing of this app runs under this Mailroom: a process a killed Mailroom left behind (its
    // pid file in the releases folder) would keep serving beside the new one; it is stopped first.
    if (!old.length) await reapOrphanedApps(path.dirname(host.path(rel.path)));
    const launched = await launchInstances(c, instanceTarget(c, old.length), {
      releaseId: Number(rel.id),
      cwd: host.path(rel.path),
      env: this.apps.openEnv(rel.env_sealed),
      runAs: await this.runAs(c.name),
      logFile: host.path(appLogFile(c)),
      skipPorts: this.runtime.ports(),
      log: () => undefined,
      systemMode: this.apps.ctx.deps.config.hostRoot === '/',
    }).catch(async (err: unknown) => {
      const tail = ((err as { tail?: string[] }).tail ?? []).join('\n');
      await patchAppRuntime(this.db, Number(row.id), {
        status: 'error',
        status_message: `${(err as Error).message}${tail ? `\n${tail}` : ''}`,
      });
      throw conflict((err as Error).message);
    });
    this.runtime.set(Number(row.id), launched.running);
    const ports = launched.running.map((r) => r.port);
    const out = await this.switchTo(
      row,
      {
        status: 'active',
        status_message: '',
        running_port: ports[0]!,
        instance_ports: JSON.stringify(ports),
      },
      'active',
    );
    await stopInstances(old, c.shutdownTimeout * 1000);
    return this.apps.view(out.row);
  }

  /** Stops the app: Apache answers 503 for its domain first, then the process is stopped. */
  async stop(name: string): Promise<WebApplication> {
    const row = await this.apps.row(name);
    if (row.status === 'deploying') throw conflict(appMessages.busy(name));
    const c = rowConfig(row);
    const out = await this.switchTo(
      row,
      { status: 'inactive', status_message: '', running_port: null, instance_ports: '[]' },
      'inactive',
    );
    const run = this.runtime.instances(Number(row.id));
    if (run.length) {
      await stopInstances(run, c.shutdownTimeout * 1000);
      this.runtime.forget(Number(row.id), run[0]!.releaseId);
    }
    return this.apps.view(out.row);
  }

  /**
   * Restart: with a Restart Command and a running process, that command runs as the app's user in
   * the release folder with the release's environment (an argument array, no shell), then the
   * running release must answer its health check again (Health Check Interval + Timeout). Without
   * one (or nothing running), a fresh process of the live release is started and health-checked,
   * Apache switched to it, and the old process stopped (start before stop: no request is refused).
   */
  async restart(name: string): Promise<WebApplication> {
    const row = await this.apps.row(name);
    if (row.status === 'deploying') throw conflict(appMessages.busy(name));
    const c = rowConfig(row);
    const id = Number(row.id);
    const run = this.runtime.get(id);
    const argv = c.restartCommand.trim() ? splitCommand(c.restartCommand) : null;
    // Several instances: the fresh start path (new instances health-checked, then switched, then the old stopped).
    if (
      !argv?.length ||
      !run ||
      servesFiles(c.type) ||
      row.running_port === null ||
      this.runtime.instances(id).length > 1
    )
      return this.start(name);
    const timeout = Math.max(RESTART_COMMAND_MIN_MS, (c.shutdownTimeout + c.healthCheckTimeout) * 1000);
    const code = await run.proc.runCommand(argv, timeout);
    const fail = async (message: string) => {
      const tail = run.proc.tail.slice(-10).join('\n');
      await patchAppRuntime(this.db, id, {
        status: 'error',
        status_message: `${message}${tail ? `\n${tail}` : ''}`,
      });
      return conflict(message);
    };
    if (code !== 0)
      throw await fail(
        `The Restart Command ${code === null ? 'did not end within ' + timeout / 1000 + ' s' : `exited with code ${code}`}`,
      );
    const budget = healthBudgetMs(c);
    const health = await awaitHealthy(c, run.port, budget);
    if (!health.ok)
      throw await fail(
        `After the Restart Command the app did not answer 2xx on ${c.healthCheckPath} within ${budget / 1000} s (last: ${health.last || 'no answer'})`,
      );
    run.proc.healthy();
    const out = await patchAppRuntime(this.db, id, { status: 'active', status_message: '' });
    return this.apps.view(out);
  }

  async toggle(name: string): Promise<WebApplication> {
    const row = await this.apps.row(name);
    return row.status === 'active' ? this.stop(name) : this.start(name);
  }

  private readonly lastCheck = new Map<number, number>();

  /**
   * Health checks keep running after a deploy: every Health Check Interval the running release is
   * asked for its health path; a failure sets the app to error with the answer, a later success
   * sets it back to active (only when the error was a failed check).
   */
  async checkHealth(now = Date.now()): Promise<void> {
    const rows = await appsWithStatus(this.db, ['active', 'error'], { running: true });
    for (const row of rows) {
      const c = rowConfig(row);
      const id = Number(row.id);
      const instances = this.runtime.instances(id);
      if (!c.enableHealthChecks || !instances.length) continue;
      if (now - (this.lastCheck.get(id) ?? 0) < c.healthCheckInterval * 1000) continue;
      this.lastCheck.set(id, now);
      // Every instance is asked; the first that does not answer 2xx is the app's answer.
      let status: number | null = 200;
      for (const inst of instances) {
        status = await probeHttp(inst.port, c.healthCheckPath, c.healthCheckTimeout * 1000);
        if (status === null || status < 200 || status >= 300) break;
      }
      const ok = status !== null && status >= 200 && status < 300;
      if (!ok && row.status === 'active')
        await patchAppRuntime(this.db, id, {
          status: 'error',
          status_message: `${HEALTH_FAILED} ${c.healthCheckPath} answered ${status === null ? 'nothing' : `HTTP ${status}`} within ${c.healthCheckTimeout} s`,
        });
      else if (ok && row.status === 'error' && row.status_message.startsWith(HEALTH_FAILED))
        await patchAppRuntime(this.db, id, { status: 'active', status_message: '' });
    }
  }

  /**
   * The system alerts' conditions of this area: one per application in error (a failed health
   * check, a crash loop, a release that never became healthy), resolved when it is active again.
   */
  async alertConditions(): Promise<AppAlertCondition[]> {
    const rows = await appsWithStatus(this.db, ['error']);
    return rows.map((r) => ({
      key: `app:${r.name}`,
      type: 'application',
      severity: 'critical' as const,
      title: `Application unhealthy: ${r.name}`,
      message: alertReason(r.status_message) || `${r.name} is in error.`,
    }));
  }

  /** Mailroom started: run again the live release of every application that was serving. */
  async resumeAll(log: (msg: string, err?: unknown) => void): Promise<void> {
    const rows = await appsWithStatus(this.db, ['active', 'deploying']);
    for (const r of rows) {
      try {
        if (r.status === 'deploying')
          await patchAppRuntime(this.db, Number(r.id), {
            status: 'error',
            status_message: 'The server stopped during the deploy',
            deploy_job_id: null,
          });
        if (r.current_release_id !== null && !servesFiles(r.type)) await this.start(r.name);
      } catch (err) {
        log(`web app ${r.name} did not start`, err);
      }
    }
  }
}
