import {
  ANGULAR_OUTPUT_DIR,
  APP_PROCESS_TYPES,
  appMessages,
  type DeployTimings,
  isGitRef,
  isPhpAppType,
  splitCommand,
} from '@mailroom/contract/web/applications';
import type { JobAccepted } from '@mailroom/contract/jobs';
import {
  chownTree,
  ensureAppFolder,
  fileExists,
  findFileBelow,
  folderExists,
  removeTree,
  runBuildStep,
  treeSize,
} from '../../../host/app-process.ts';
import { fetchRelease } from '../../../host/git.ts';
import { buildLimits, describeLimits, LimitGroup, limitSupport } from '../../../host/app-limits.ts';
import { conflict, fieldError } from '../../../http/errors.ts';
import { type AppRow, findAppById, patchAppRuntime, rowConfig } from './application.repository.ts';
import type { ApplicationService } from './application.service.ts';
import { DeployLogger, type JobContext, type JobRunner } from './deploy-log.service.ts';
import type { AppLifecycle } from './app-lifecycle.service.ts';
import { appDataDir, appLogFile, releasesFolder, servesFiles } from './app.layout.ts';
import { instanceTarget, launchInstances, releaseEnv, stopInstances } from './app-runtime.service.ts';
import { awaitPhpHealthy, phpVersionFor, preparePhpRelease } from './php-release.service.ts';
import { failRelease, finishRelease, pruneReleases } from './deploy-release.service.ts';
import {
  insertRelease,
  listReleases,
  NO_TIMINGS,
  patchRelease,
  type ReleaseRow,
} from './release.repository.ts';

export const DEPLOY_JOB_KIND = 'web.app.deploy';
export const ROLLBACK_JOB_KIND = 'web.app.rollback';
/** A build step may run this long. */
export const BUILD_TIMEOUT_MS = 30 * 60_000;
const seconds = (t0: number) => Math.round((Date.now() - t0) / 10) / 100;

/**
 * Deploy and rollback as jobs. One job per application at a time (the app's status is `deploying`
 * while it runs). Every step logs numbered lines; a failure at any step leaves the previous release
 * serving and the app in `error` with the last lines.
 */
export class DeployJobs {
  constructor(
    private readonly svc: ApplicationService,
    private readonly life: AppLifecycle,
    private readonly jobs: JobRunner,
  ) {}

  private async claim(row: AppRow): Promise<void> {
    if (row.status === 'deploying') throw conflict(appMessages.busy(row.name));
    await patchAppRuntime(this.svc.db, Number(row.id), { status: 'deploying' });
  }

  async deploy(name: string, ref: string | undefined, actor: string | null): Promise<JobAccepted> {
    const row = await this.svc.row(name);
    const c = rowConfig(row);
    const want = ref ?? c.branch;
    if (!isGitRef(want)) throw fieldError(ref === undefined ? 'branch' : 'ref', `Branch format is invalid`);
    if (!c.repository) throw fieldError('repository', appMessages.repositoryRequired);
    if (APP_PROCESS_TYPES.includes(c.type) && !splitCommand(c.startCommand)?.length)
      throw fieldError('startCommand', appMessages.startCommandRequired);
    if (isPhpAppType(c.type))
      await phpVersionFor(this.svc.ctx).catch((err: unknown) => {
        throw conflict((err as Error).message);
      });
    await this.claim(row);
    const job = await this.jobs
      .run(DEPLOY_JOB_KIND, `Deploy ${name} (${want})`, actor, (ctx) =>
        this.runDeploy(Number(row.id), want, actor, ctx),
      )
      .catch(async (err: unknown) => {
        await patchAppRuntime(this.svc.db, Number(row.id), {
          status: row.status as never,
        });
        throw err;
      });
    return { jobId: job.id, state: job.state, message: appMessages.deployStarted(name) };
  }

  async rollback(name: string, releaseId: number | undefined, actor: string | null): Promise<JobAccepted> {
    const row = await this.svc.row(name);
    const target = await this.rollbackTarget(row, releaseId);
    await this.claim(row);
    const job = await this.jobs
      .run(ROLLBACK_JOB_KIND, `Roll back ${name} to release ${target.number}`, actor, (ctx) =>
        this.runRollback(Number(row.id), target, actor, ctx),
      )
      .catch(async (err: unknown) => {
        await patchAppRuntime(this.svc.db, Number(row.id), { status: row.status as never });
        throw err;
      });
    return { jobId: job.id, state: job.state, message: appMessages.rollbackStarted(name) };
  }

  private async rollbackTarget(row: AppRow, releaseId: number | undefined): Promise<ReleaseRow> {
    const all = await listReleases(this.svc.db, Number(row.id));
    const current = row.current_release_id === null ? null : Number(row.current_release_id);
    const currentRow = all.find((r) => Number(r.id) === current);
    let target: ReleaseRow | undefined;
    if (releaseId !== undefined) {
      target = all.find((r) => Number(r.id) === releaseId);
      if (!target) throw fieldError('releaseId', appMessages.releaseNotFound(releaseId));
    } else {
      // The newest release that ran before the live one and whose folder is still there.
      target = all.find(
        (r) =>
          Number(r.id) !== current &&
          r.path !== null &&
          r.finished_at !== null &&
          (r.state === 'retired' || r.state === 'live') &&
          (!currentRow || r.path !== currentRow.path || r.env_sealed !== currentRow.env_sealed) &&
          Number(r.number) < Number(currentRow?.number ?? Infinity),
      );
    }
    if (!target?.path || target.state === 'failed' || Number(target.id) === current)
      throw conflict(appMessages.noPreviousRelease(row.name));
    return target;
  }

  // ---------- the work ----------

  private async runDeploy(appId: number, ref: string, actor: string | null, job: JobContext) {
    const row = (await findAppById(this.svc.db, appId))!;
    const c = rowConfig(row);
    const env = this.svc.openEnv(row.env_sealed);
    const log = new DeployLogger(this.svc, appId, job);
    const rel = await insertRelease(this.svc.db, {
      appId,
      trigger: 'deploy',
      sourceReleaseId: null,
      ref,
      commit: null,
      path: null,
      envSealed: row.env_sealed,
      envNames: JSON.parse(row.env_names) as string[],
      jobId: job.jobId,
      startedBy: actor,
    });
    await patchAppRuntime(this.svc.db, appId, { deploy_job_id: job.jobId });
    const relPath = `${releasesFolder(c)}/${rel.number}`;
    const dir = this.svc.ctx.deps.host.path(relPath);
    const timings: DeployTimings = { ...NO_TIMINGS };
    try {
      await patchRelease(this.svc.db, Number(rel.id), { path: relPath });
      if (await folderExists(dir)) await removeTree(dir);
      // 1. clone
      job.progress({ phase: 'Cloning' });
      log.info(`Fetching ${c.repository} at ${ref} into ${relPath}`);
      let t = Date.now();
      const commit = await fetchRelease(c.repository, ref, dir, {
        signal: job.signal,
        onLine: (l) => log.line('stderr', l),
      });
      timings.clone = seconds(t);
      log.info(`Commit ${commit} (${timings.clone} s)`);
      await patchRelease(this.svc.db, Number(rel.id), { commit_sha: commit });
      const runAs = await this.life.runAs(c.name);
      await chownTree(dir, runAs);
      // The persisted data folder (outside the releases, in the app's backups) belongs to the app.
      const data = this.svc.ctx.deps.host.path(appDataDir(c));
      await ensureAppFolder(data);
      await chownTree(data, runAs);
      // 2. build
      job.progress({ phase: 'Building' });
      t = Date.now();
      if (c.buildCommand.trim()) {
        const argv = splitCommand(c.buildCommand)!;
        // The build's cap (host/app-limits.ts): nice 10, and its own cgroup when this host allows one.
        const cap = buildLimits();
        const systemMode = this.svc.ctx.deps.config.hostRoot === '/';
        const group = await LimitGroup.open(`mailroom-build-${c.name}`, cap, systemMode).catch(() => null);
        const capText = group
          ? `nice 10, ${describeLimits(group.mechanism, cap)}`
          : `nice 10; CPU/memory cap not enforced: ${(await limitSupport(systemMode)).reason || 'no cgroup for builds here'}`;
        log.info(`Building: ${argv.join(' ')}${runAs ? ` as ${runAs.user}` : ''} (${capText})`);
        const code = await runBuildStep(argv, {
          cwd: dir,
          env: releaseEnv(c, env, 0),
          runAs,
          onLine: (s, l) => log.line(s, l),
          signal: job.signal,
          timeoutMs: BUILD_TIMEOUT_MS,
          ...(group ? { onSpawn: (pid: number) => group.add(pid) } : {}),
        }).finally(() => group?.remove());
        if (code !== 0) throw new Error(`The build failed (exit ${code})`);
      } else {
        log.info('No Build Command');
        if (c.type === 'Python' && (await fileExists(`${dir}/requirements.txt`)))
          log.info(
            'requirements.txt is not installed without a Build Command (e.g. python3 -m pip install --target vendor -r requirements.txt, with pip able to reach its index or a wheel folder)',
          );
      }
      if (c.type === 'Angular') {
        if (!(await fileExists(`${dir}/${ANGULAR_OUTPUT_DIR}/index.html`))) {
          const found = await findFileBelow(dir, 'index.html', 3);
          throw new Error(appMessages.angularOutputMissing(found));
        }
        log.info(`Apache serves ${relPath}/${ANGULAR_OUTPUT_DIR} (index.html for any path that is no file)`);
      }
      // PHP types: the kept folders and configuration file linked in from the data folder.
      if (isPhpAppType(c.type)) await preparePhpRelease(this.svc.ctx, c, dir, runAs, (l) => log.info(l));
      timings.build = seconds(t);
      // 3. start + 4. health
      await patchRelease(this.svc.db, Number(rel.id), { state: 'starting' });
      const switched = await this.startAndSwitch(row, rel, relPath, env, runAs, log, job, timings);
      const disk = await treeSize(dir);
      await patchRelease(this.svc.db, Number(rel.id), { disk_usage: disk, vhost_hash: switched.hash });
      await pruneReleases(this.svc, appId, Number(rel.id), log);
      log.info(
        `Deployed release ${rel.number} (${commit.slice(0, 12)}): clone ${timings.clone} s, build ${timings.build} s, start ${timings.start} s, health ${timings.health} s, switch ${timings.switch} s`,
      );
      await finishRelease(this.svc, rel, 'live', timings, log, '');
      return {
        result: { releaseId: Number(rel.id), commit, timings },
        summary: `${c.name} release ${rel.number} is live`,
      };
    } catch (err) {
      await failRelease(this.svc, appId, rel, timings, log, err);
      throw err;
    }
  }

  private async runRollback(appId: number, target: ReleaseRow, actor: string | null, job: JobContext) {
    const row = (await findAppById(this.svc.db, appId))!;
    const log = new DeployLogger(this.svc, appId, job);
    const rel = await insertRelease(this.svc.db, {
      appId,
      trigger: 'rollback',
      sourceReleaseId: Number(target.id),
      ref: target.ref,
      commit: target.commit_sha,
      path: target.path,
      envSealed: target.env_sealed,
      envNames: JSON.parse(target.env_names) as string[],
      jobId: job.jobId,
      startedBy: actor,
    });
    await patchAppRuntime(this.svc.db, appId, { deploy_job_id: job.jobId });
    const timings: DeployTimings = { ...NO_TIMINGS };
    try {
      log.info(
        `Rolling back to release ${target.number} (${target.commit_sha ?? 'no commit'}) with its environment`,
      );
      const c = rowConfig(row);
      const runAs = await this.life.runAs(c.name);
      const switched = await this.startAndSwitch(
        row,
        rel,
        target.path!,
        this.svc.openEnv(target.env_sealed),
        runAs,
        log,
        job,
        timings,
      );
      await patchRelease(this.svc.db, Number(rel.id), { disk_usage: 0, vhost_hash: switched.hash });
      await finishRelease(this.svc, rel, 'live', timings, log, '');
      return {
        result: { releaseId: Number(rel.id), timings },
        summary: `${row.name} rolled back to release ${target.number}`,
      };
    } catch (err) {
      await failRelease(this.svc, appId, rel, timings, log, err);
      throw err;
    }
  }

  /** Start the release, wait until healthy, switch Apache to it, drain and stop the old one. */
  private async startAndSwitch(
    row: AppRow,
    rel: ReleaseRow,
    relPath: string,
    env: Record<string, string>,
    runAs: Awaited<ReturnType<AppLifecycle['runAs']>>,
    log: DeployLogger,
    job: JobContext,
    timings: DeployTimings,
  ): Promise<{ hash: string | null }> {
    const c = rowConfig(row);
    const appId = Number(row.id);
    const old = this.svc.runtime.instances(appId);
    let port: number | null = null;
    let ports: number[] = [];
    if (servesFiles(c.type)) {
      timings.start = 0;
      timings.health = 0;
      log.info(`${c.type}: Apache serves the release's files (no process)`);
      if (isPhpAppType(c.type)) {
        // Asked through the app's own pool before Apache switches to it: a failure keeps the old one.
        job.progress({ phase: 'Health check' });
        const t0 = Date.now();
        await awaitPhpHealthy(this.svc.ctx, c, this.svc.ctx.deps.host.path(relPath), env, job.signal, (l) =>
          log.info(l),
        );
        timings.health = seconds(t0);
      }
    } else {
      job.progress({ phase: 'Starting' });
      const count = instanceTarget(c, old.length);
      if (c.enableLoadBalancing) log.info(`Load balancing: ${count} instance(s) of the release`);
      const launched = await launchInstances(c, count, {
        releaseId: Number(rel.id),
        cwd: this.svc.ctx.deps.host.path(relPath),
        env,
        runAs,
        logFile: this.svc.ctx.deps.host.path(appLogFile(c)),
        skipPorts: this.svc.runtime.ports(),
        signal: job.signal,
        log: (t) => log.info(t),
        systemMode: this.svc.ctx.deps.config.hostRoot === '/',
      });
      timings.start = Math.round(launched.startSeconds * 100) / 100;
      timings.health = Math.round(launched.healthSeconds * 100) / 100;
      ports = launched.running.map((r) => r.port);
      port = ports[0]!;
      await patchRelease(this.svc.db, Number(rel.id), { port });
      this.svc.runtime.set(appId, launched.running);
      for (const r of launched.running)
        r.proc.onCrash = (code, tail) => {
          void patchAppRuntime(this.svc.db, appId, {
            status_message: `The process exited (code ${code ?? 'signal'}); restarting\n${tail.slice(-10).join('\n')}`,
          }).catch(() => undefined);
        };
    }
    job.progress({ phase: 'Switching' });
    const t = Date.now();
    let switched: { hash: string | null };
    try {
      const fresh = (await findAppById(this.svc.db, appId))!;
      switched = await this.life.switchTo(
        fresh,
        {
          status: 'active',
          status_message: '',
          current_release_id: Number(rel.id),
          running_port: port,
          instance_ports: JSON.stringify(ports),
          deploy_job_id: null,
          last_deployed: new Date().toISOString(),
        },
        'active',
      );
    } catch (err) {
      const now = this.svc.runtime.instances(appId);
      if (now[0]?.releaseId === Number(rel.id)) {
        await stopInstances(now, 1000);
        if (old.length) this.svc.runtime.set(appId, old);
        else this.svc.runtime.forget(appId, Number(rel.id));
      }
      throw err;
    }
    timings.switch = seconds(t);
    log.info(`Apache switched (graceful reload) in ${timings.switch} s`);
    const previous = old.filter((o) => o.releaseId !== Number(rel.id));
    if (previous.length) {
      job.progress({ phase: 'Draining' });
      log.info(
        `Draining the previous release (${previous.length} instance(s)) for ${c.shutdownTimeout} s, then stopping it`,
      );
      if (c.enableGracefulShutdown && c.shutdownTimeout > 0)
        await new Promise((r) => setTimeout(r, c.shutdownTimeout * 1000));
      await stopInstances(previous, c.shutdownTimeout * 1000);
      for (const id of new Set(previous.map((o) => o.releaseId)))
        await patchRelease(this.svc.db, id, { state: 'retired', port: null });
    }
    // Releases that were live before (Static, or after a restart) are retired too.
    const all = await listReleases(this.svc.db, appId);
    for (const r of all)
      if (r.state === 'live' && Number(r.id) !== Number(rel.id))
        await patchRelease(this.svc.db, Number(r.id), { state: 'retired', port: null });
    return switched;
  }
}
