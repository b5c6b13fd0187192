import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import {
  AUTO_DEPLOY_POLL_SECONDS,
  type AutoDeployInfo,
  type AutoDeployOutcome,
  autoDeployMessages as M,
  WEBHOOK_DELIVERY_HEADERS,
  WEBHOOK_EVENT_HEADERS,
  WEBHOOK_RATE_LIMIT_PER_MINUTE,
  WEBHOOK_REPLAY_WINDOW_SECONDS,
  WEBHOOK_SIGNATURE_HEADER,
  webhookPath,
  type WebhookSecretAnswer,
} from '@mailroom/contract/web/app-auto-deploy';
import { appMessages } from '@mailroom/contract/web/applications';
import { remoteBranchHead } from '../../../host/git.ts';
import { recordAudit } from '../../../http/audit-log.repository.ts';
import { AppError, badRequest, conflict, tooManyRequests, unauthorized } from '../../../http/errors.ts';
import { RATE_LIMIT_MESSAGE } from '../../../http/rate-limit.ts';
import type { BatchedCounter } from '../../../http/rate-limit-store.ts';
import { type AppRow, allApps, findAppByName, rowConfig } from './application.repository.ts';
import type { ApplicationService } from './application.service.ts';
import {
  claimCommit,
  findHook,
  noteCheck,
  recordDelivery,
  releaseCommit,
  saveSecret,
} from './auto-deploy.repository.ts';
import type { DeployJobs } from './deploy.job.ts';
import { releaseCommits } from './release.repository.ts';

export type AutoDeployVia = 'webhook' | 'poll' | 'console';
const AUDIT_ACTOR = 'auto-deploy';

/** `sha256=<hex>` of the raw body with the secret, compared in constant time. */
export function signatureMatches(secret: string, raw: string, header: string | undefined): boolean {
  if (typeof header !== 'string') return false;
  const want = Buffer.from(`sha256=${createHmac('sha256', secret).update(raw, 'utf8').digest('hex')}`);
  const got = Buffer.from(header.trim().toLowerCase());
  return got.length === want.length && timingSafeEqual(got, want);
}

const header = (h: IncomingHttpHeaders, names: readonly string[]): string | null => {
  for (const n of names) {
    const v = h[n];
    if (typeof v === 'string' && v.trim()) return v.trim();
  }
  return null;
};

/** The push event's `ref`, from a JSON body or GitHub's form body (`payload=<json>`). */
function pushRef(raw: string, contentType: string | undefined): string | null {
  try {
    const text = (contentType ?? '').includes('application/x-www-form-urlencoded')
      ? (new URLSearchParams(raw).get('payload') ?? '')
      : raw;
    const body = JSON.parse(text) as { ref?: unknown };
    return typeof body.ref === 'string' ? body.ref : null;
  } catch {
    return null;
  }
}

/**
 * Auto deploy (contract/src/web/app-auto-deploy.ts says the rule): the webhook, the poll and the
 * console's "Check now" all end in `check`, which reads the branch head from the remote and starts
 * the normal health-gated deploy job when that commit is new.
 */
export class AutoDeploy {
  constructor(
    private readonly svc: ApplicationService,
    private readonly deploys: DeployJobs,
    private readonly counter: BatchedCounter,
  ) {}

  private get db() {
    return this.svc.db;
  }

  private now(): number {
    return this.svc.ctx.deps.clock?.() ?? Date.now();
  }

  async info(name: string): Promise<AutoDeployInfo> {
    const row = await this.svc.row(name);
    const c = rowConfig(row);
    const hook = await findHook(this.db, Number(row.id));
    return {
      enabled: c.enableAutoDeploy,
      branch: c.autoDeployBranch || c.branch,
      webhookPath: webhookPath(name),
      secretSet: !!hook?.secret_sealed,
      secretCreatedAt: hook?.secret_created_at ?? null,
      pollSeconds: AUTO_DEPLOY_POLL_SECONDS,
      lastCommit: hook?.last_commit ?? null,
      lastCheckedAt: hook?.last_checked_at ?? null,
      lastResult: hook?.last_result ?? '',
    };
  }

  /** A new secret (32 random bytes, hex), sealed with the apps' vault key; answered this once. */
  async rotateSecret(name: string): Promise<WebhookSecretAnswer & { replaced: boolean }> {
    const row = await this.svc.row(name);
    const before = await findHook(this.db, Number(row.id));
    const secret = randomBytes(32).toString('hex');
    const at = new Date(this.now()).toISOString();
    await saveSecret(this.db, Number(row.id), this.svc.vault.seal(secret), at);
    return {
      success: true,
      secret,
      webhookPath: webhookPath(name),
      createdAt: at,
      message: M.secretShownOnce,
      replaced: !!before?.secret_sealed,
    };
  }

  /**
   * The rule: the remote's head of the auto-deploy branch, when it is neither live nor the commit
   * last handed to a deploy, starts the deploy job for the branch (claimed by a compare-and-set).
   */
  async check(row: AppRow, via: AutoDeployVia): Promise<AutoDeployOutcome> {
    const c = rowConfig(row);
    const id = Number(row.id);
    const branch = c.autoDeployBranch || c.branch;
    const at = new Date(this.now()).toISOString();
    const answer = async (o: AutoDeployOutcome) => {
      await noteCheck(this.db, id, `${via}: ${o.reason}`, at);
      return o;
    };
    const ignored = (reason: string, commit: string | null = null) =>
      answer({ outcome: 'ignored', reason, commit, jobId: null });
    if (!c.repository) return ignored(appMessages.repositoryRequired);
    let head: string | null;
    try {
      head = await remoteBranchHead(c.repository, branch);
    } catch (err) {
      return ignored(`git ls-remote failed: ${(err as Error).message.split('\n')[0] ?? ''}`);
    }
    if (!head) return ignored(M.branchMissing(branch));
    const live =
      row.current_release_id === null
        ? null
        : ((await releaseCommits(this.db, [Number(row.current_release_id)]))[0]?.commit_sha ?? null);
    if (head === live) return ignored(M.alreadyLive(head), head);
    const hook = await findHook(this.db, id);
    if (hook?.last_commit === head) return ignored(M.alreadyTried(head), head);
    if (row.status === 'deploying') return ignored(M.busy(c.name, head), head);
    if (!(await claimCommit(this.db, id, head))) return ignored(M.alreadyTried(head), head);
    try {
      const job = await this.deploys.deploy(c.name, branch, `${AUDIT_ACTOR} (${via})`);
      await recordAudit(this.db, {
        actor: AUDIT_ACTOR,
        action: 'web.app.deploy',
        target: c.name,
        outcome: 'success',
        details: { via, branch, commit: head, jobId: job.jobId },
      });
      return answer({
        outcome: 'deploying',
        reason: M.started(c.name, head),
        commit: head,
        jobId: job.jobId,
      });
    } catch (err) {
      await releaseCommit(this.db, id, head, hook?.last_commit ?? null);
      if (err instanceof AppError && err.statusCode === 409) return ignored(M.busy(c.name, head), head);
      throw err;
    }
  }

  async checkNow(name: string): Promise<AutoDeployOutcome> {
    return this.check(await this.svc.row(name), 'console');
  }

  /** The poll: every application with Enable Auto Deploy not checked for AUTO_DEPLOY_POLL_SECONDS. */
  async pollAll(onError: (name: string, err: unknown) => void): Promise<number> {
    let n = 0;
    for (const row of await allApps(this.db)) {
      const c = rowConfig(row);
      if (!c.enableAutoDeploy || !c.repository) continue;
      const hook = await findHook(this.db, Number(row.id));
      const last = hook?.last_checked_at ? Date.parse(hook.last_checked_at) : 0;
      if (this.now() - last < AUTO_DEPLOY_POLL_SECONDS * 1000) continue;
      try {
        if ((await this.check(row, 'poll')).outcome === 'deploying') n++;
      } catch (err) {
        onError(row.name, err);
      }
    }
    return n;
  }

  private limit(ip: string): Promise<void> {
    return new Promise((resolve, reject) => {
      this.counter.incr(
        `app-webhook:${ip}`,
        (err, r) => {
          if (err || !r || r.current <= WEBHOOK_RATE_LIMIT_PER_MINUTE) return resolve();
          const wait = Math.max(1, Math.ceil(r.ttl / 1000));
          reject(tooManyRequests(wait, RATE_LIMIT_MESSAGE(wait)));
        },
        60_000,
        WEBHOOK_RATE_LIMIT_PER_MINUTE,
      );
    });
  }

  /**
   * A delivery of a Git server: rate limited per address, signature checked (401, nothing else
   * read), delivery id recorded (409 on a replay), then only a push to the auto-deploy branch goes
   * on to `check`. Every delivery is audited, refused ones too.
   */
  async deliver(
    name: string,
    raw: string,
    headers: IncomingHttpHeaders,
    ip: string,
  ): Promise<{ accepted: boolean; outcome: AutoDeployOutcome }> {
    await this.limit(ip);
    const delivery = header(headers, WEBHOOK_DELIVERY_HEADERS);
    const audit = (outcome: 'success' | 'failure', details: Record<string, unknown>) =>
      recordAudit(this.db, {
        actor: 'webhook',
        action: 'web.app.webhook',
        target: name,
        ip,
        outcome,
        details: { delivery, ...details },
      });
    const refuse = async (err: AppError) => {
      await audit('failure', { status: err.statusCode, reason: err.message });
      return err;
    };
    const row = await findAppByName(this.db, name);
    const hook = row ? await findHook(this.db, Number(row.id)) : undefined;
    let secret: string | null = null;
    try {
      secret = hook?.secret_sealed ? this.svc.vault.open(hook.secret_sealed) : null;
    } catch {
      secret = null;
    }
    const sig = headers[WEBHOOK_SIGNATURE_HEADER];
    // An unknown application answers as a wrong signature does: the URL tells nothing.
    if (!row || secret === null || !signatureMatches(secret, raw, typeof sig === 'string' ? sig : undefined))
      throw await refuse(unauthorized(M.badSignature));
    if (!delivery) throw await refuse(badRequest(M.deliveryRequired));
    if (
      !(await recordDelivery(
        this.db,
        Number(row.id),
        delivery.slice(0, 200),
        this.now(),
        WEBHOOK_REPLAY_WINDOW_SECONDS * 1000,
      ))
    )
      throw await refuse(conflict(M.replayed(delivery)));
    const c = rowConfig(row);
    const branch = c.autoDeployBranch || c.branch;
    const event = header(headers, WEBHOOK_EVENT_HEADERS) ?? 'push';
    let outcome: AutoDeployOutcome;
    if (event === 'ping') outcome = { outcome: 'pong', reason: M.pong, commit: null, jobId: null };
    else if (!c.enableAutoDeploy)
      outcome = { outcome: 'ignored', reason: M.disabled(name), commit: null, jobId: null };
    else if (event !== 'push')
      outcome = { outcome: 'ignored', reason: M.otherEvent(event), commit: null, jobId: null };
    else {
      const ref = pushRef(raw, headers['content-type']);
      if (ref === null) throw await refuse(badRequest(M.badPayload));
      outcome =
        ref === `refs/heads/${branch}`
          ? await this.check(row, 'webhook')
          : { outcome: 'ignored', reason: M.otherBranch(ref, branch), commit: null, jobId: null };
    }
    if (outcome.outcome !== 'deploying')
      await noteCheck(
        this.db,
        Number(row.id),
        `webhook: ${outcome.reason}`,
        new Date(this.now()).toISOString(),
      );
    await audit('success', {
      event,
      outcome: outcome.outcome,
      reason: outcome.reason,
      commit: outcome.commit,
    });
    return { accepted: outcome.outcome === 'deploying', outcome };
  }
}
