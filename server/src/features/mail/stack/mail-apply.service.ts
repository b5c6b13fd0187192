import type { ConfigCheck, LiveSaveStep, MailSettings, SaveStep } from '@mailroom/contract/mail';
import type { MailTlsSource } from '@mailroom/contract/mail-tls';
import type { AppDeps } from '../../../app-deps.ts';
import { type ApplyReport, type ApplyTarget, applyChange, applyCommitted } from '../../../apply/pipeline.ts';
import type { FileChanges, ProveResult } from '../../../apply/file-set.ts';
import type { DaemonName, ReloadResult } from '../../../host/service-control.ts';
import { checkFailed } from '../../../http/errors.ts';
import type { MailDbConn } from './mail-db.connection.ts';
import { MAIL_PATHS } from './mail-paths.layout.ts';
import {
  readMailSettings,
  recordApply,
  settingsToRender,
  writeMailSettings,
} from '../settings/mail-settings.service.ts';
import { staleMessage } from '../settings/mail-settings.service.ts';
import { prepareLocalMailHost } from '../settings/mail-setup.service.ts';
import {
  type CheckStepListener,
  checkStagedMailFiles,
  ensureFallbackCertificate,
  mailTlsRemovals,
  renderMailFiles,
} from './mail-stack.service.ts';
import { conflict } from '../../../http/errors.ts';

type Db = Parameters<typeof settingsToRender>[0];

export const MAIL_TARGET = 'mail';

/** The SSL area's certificate and TLS policy per app (set by registerMail from its options). */
const tlsSources = new WeakMap<AppDeps, MailTlsSource<Db>>();
export function setMailTlsSource(deps: AppDeps, source: MailTlsSource<Db> | undefined): void {
  if (source) tlsSources.set(deps, source);
}

const CHECK_FAILED_MESSAGE =
  'The mail server rejected the new configuration; the previous files are still in place.';

const under = (dir: string) => (p: string) => p.startsWith(`${dir}/`);

type Entry = LiveSaveStep & { t0?: number };

/**
 * The steps of one mail settings save as they run (issue 22 #17): real steps only. Each step has
 * its place from when it started (the checks run at once); `planned` steps wait as `pending` after
 * them. `onChange` hears every change (the page shows the steps while the save runs).
 */
export class SaveSteps {
  private readonly entries: Entry[];

  constructor(
    planned: string[] = [],
    private readonly onChange?: (steps: LiveSaveStep[]) => void,
  ) {
    this.entries = planned.map((name) => ({ name, state: 'pending', detail: '', ms: null }));
  }

  /** The steps that ended or did not run, in the order they started: a save's answer. */
  get steps(): SaveStep[] {
    return this.entries.flatMap(({ name, state, detail, ms }) =>
      state === 'pending' || state === 'running' ? [] : [{ name, state, detail, ms }],
    );
  }

  /** Every step now, pending ones included. */
  live(): LiveSaveStep[] {
    return this.entries.map(({ name, state, detail, ms }) => ({ name, state, detail, ms }));
  }

  private find(name: string): Entry | undefined {
    return this.entries.find((e) => e.name === name);
  }

  /** Puts a step before the pending ones (a pending step of that name leaves its place). */
  private place(entry: Entry): void {
    const i = this.entries.findIndex((e) => e.name === entry.name);
    if (i >= 0 && this.entries[i]!.state === 'pending') this.entries.splice(i, 1);
    else if (i >= 0) {
      this.entries[i] = entry;
      return;
    }
    const firstPending = this.entries.findIndex((e) => e.state === 'pending');
    this.entries.splice(firstPending < 0 ? this.entries.length : firstPending, 0, entry);
  }

  private changed(): void {
    this.onChange?.(this.live());
  }

  start(name: string): void {
    this.place({ name, state: 'running', detail: '', ms: null, t0: Date.now() });
    this.changed();
  }

  /** Whether `name` started and has not ended. */
  running(name: string): boolean {
    return this.find(name)?.state === 'running';
  }

  end(name: string, state: Exclude<SaveStep['state'], 'not-run'>, detail = ''): void {
    const e = this.find(name);
    const t0 = e?.state === 'running' ? e.t0 : undefined;
    this.place({ name, state, detail, ms: t0 === undefined ? null : Date.now() - t0 });
    this.changed();
  }

  /** A check step's event (mail-check.service.ts). */
  readonly check: CheckStepListener = (e) =>
    e.state === 'running' ? this.start(e.name) : this.end(e.name, e.state, e.detail ?? '');

  /** The later steps the save did not reach. */
  notRun(names: string[]): void {
    let any = false;
    for (const name of names) {
      const e = this.find(name);
      if (e && e.state !== 'pending') continue;
      this.place({ name, state: 'not-run', detail: '', ms: null });
      any = true;
    }
    if (any) this.changed();
  }
}

export const SAVE_STEP = {
  prepare: 'Prepare the mail host',
  save: 'Save the settings',
  live: 'Put the files live',
  reload: (d: string) => `Reload ${d}`,
  dns: 'Publish the DNS records',
} as const;

/** The mail stack as one apply target: proved by postconf/postmap/doveconf, reloaded per daemon. */
export function mailTarget(deps: AppDeps, conn: MailDbConn, steps?: SaveSteps): ApplyTarget {
  const { host } = deps;
  return {
    name: MAIL_TARGET,
    async prove(staged) {
      const c = await checkStagedMailFiles(host, conn, staged, steps?.check);
      return c ? { ok: c.ok, checked: true, output: c.output } : { ok: true, checked: false, output: '' };
    },
    async reload(changes: FileChanges, services): Promise<ReloadResult[]> {
      const paths = [...changes.written, ...changes.removed];
      // The TLS key and certificate (a renewal changes only them) are read by both daemons.
      const tls = paths.some((p) => p === MAIL_PATHS.tlsCert || p === MAIL_PATHS.tlsKey);
      const which: DaemonName[] = [];
      if (tls || paths.some(under(MAIL_PATHS.postfixDir))) which.push('postfix');
      if (tls || paths.some(under('/etc/dovecot'))) which.push('dovecot');
      // The filter's settings (rspamd re-reads its DKIM maps by itself).
      if (paths.some(under('/etc/rspamd/local.d'))) which.push('rspamd');
      // Independent daemons: reloaded at once, answered in this order (issue 22 #17).
      return Promise.all(
        which.map(async (d) => {
          steps?.start(SAVE_STEP.reload(d));
          const r = await services.reload(d);
          steps?.end(SAVE_STEP.reload(d), !r.ok ? 'failed' : r.attempted ? 'passed' : 'skipped', r.output);
          return r;
        }),
      );
    },
  };
}

/** The check as the mail settings answer shows it (null: no checker installed). */
export function checkOf(proof: ProveResult | null, output: string): ConfigCheck | null {
  if (proof && !proof.checked) return null;
  return proof ? { ok: proof.ok, output: [proof.output, output].filter(Boolean).join('\n') } : null;
}

async function renderCommitted(deps: AppDeps, conn: MailDbConn, db: Parameters<typeof settingsToRender>[0]) {
  const settings = await settingsToRender(db);
  const { ports } = deps.config;
  const tls = (await tlsSources.get(deps)?.(settings.hostname, db)) ?? null;
  const opts = { ports, filter: { milterPort: ports.milter, dnsPort: ports.dns }, tls };
  return {
    files: await renderMailFiles(db, deps.host, conn, settings, opts),
    // Unassigned or deleted: the certificate's key and certificate leave the disk (the fallback is served).
    remove: mailTlsRemovals(settings, opts),
  };
}

/** Records the outcome on the settings row (the Settings Status shows it). */
async function recordReport(deps: AppDeps, r: ApplyReport<unknown>): Promise<void> {
  const reloadWords = r.reloads.map((x) => x.output).join('\n');
  const check: ConfigCheck | null =
    r.outcome.state === 'applied'
      ? checkOf(r.proof, reloadWords)
      : { ok: false, output: `${r.outcome.message}\n${r.outcome.output}`.trim() };
  await recordApply(deps.database.db, check, r.outcome.state === 'applied');
}

/** Renders the committed settings again and puts changed files live (start, new DKIM keys, Retry). */
export async function applyMailCommitted(deps: AppDeps, conn: MailDbConn): Promise<ApplyReport<undefined>> {
  // Local mode as root: the vmail user, mail folder, Postfix/Dovecot folders and database
  // permissions the rendered files rely on (system mode: `mailroom setup`).
  await prepareLocalMailHost(deps.host, conn);
  const { settings, problem } = await readMailSettings(deps.database.db);
  if (!problem && settings.enableTLS) {
    const tls = await ensureFallbackCertificate(deps.host, settings.hostname);
    if (tls) throw checkFailed(tls, tls);
  }
  const r = await applyCommitted(deps, mailTarget(deps, conn), (db) => renderCommitted(deps, conn, db));
  await recordReport(deps, r);
  return r;
}

/**
 * Saves new settings through the pipeline: proved before the commit (a refusal saves nothing and
 * answers 422), committed with an audit line holding the values before and after, then put live.
 */
export async function saveMailSettings(
  deps: AppDeps,
  conn: MailDbConn,
  next: MailSettings,
  version: number,
  steps = new SaveSteps(),
): Promise<ApplyReport<MailSettings>> {
  const { db } = deps.database;
  const current = await readMailSettings(db);
  if (version !== current.version) throw conflict(staleMessage, { version: current.version });
  steps.start(SAVE_STEP.prepare);
  steps.end(SAVE_STEP.prepare, (await prepareLocalMailHost(deps.host, conn)) ? 'passed' : 'skipped');
  if (next.enableTLS) {
    const tls = await ensureFallbackCertificate(deps.host, next.hostname);
    if (tls) throw checkFailed(tls, tls);
  }
  try {
    const base = mailTarget(deps, conn, steps);
    const r = await applyChange(deps, {
      target: {
        ...base,
        // Reloads come after the files went live.
        reload: (changes, services) => {
          if (steps.running(SAVE_STEP.live)) steps.end(SAVE_STEP.live, 'passed', describe(changes));
          return base.reload!(changes, services);
        },
      },
      change: async (trx, phase) => {
        if (phase === 'commit') steps.start(SAVE_STEP.save);
        if (!(await writeMailSettings(trx, next, version))) {
          throw conflict(staleMessage, { version: (await readMailSettings(trx)).version });
        }
        return next;
      },
      render: (d, _v, phase) => {
        if (phase === 'commit') {
          // The commit transaction ended before the render from the committed state.
          steps.end(SAVE_STEP.save, 'passed');
          steps.start(SAVE_STEP.live);
        }
        return renderCommitted(deps, conn, d);
      },
      audit: () => ({
        details: { version: version + 1 },
        before: current.problem ? null : current.settings,
        after: next,
      }),
      refusedMessage: () => CHECK_FAILED_MESSAGE,
    });
    if (steps.running(SAVE_STEP.live))
      steps.end(
        SAVE_STEP.live,
        r.outcome.state === 'applied' ? 'skipped' : 'failed',
        r.outcome.state === 'applied'
          ? r.outcome.message
          : `${r.outcome.message}\n${r.outcome.output}`.trim(),
      );
    await recordReport(deps, r);
    return r;
  } catch (err) {
    if (steps.running(SAVE_STEP.save)) steps.end(SAVE_STEP.save, 'failed', String(err));
    steps.notRun([SAVE_STEP.save, SAVE_STEP.live]);
    const details = (err as { code?: string; details?: { output?: string } }).details;
    if ((err as { code?: string }).code === 'CHECK_FAILED')
      await recordApply(db, { ok: false, output: details?.output ?? '' }, false);
    throw err;
  }
}

const describe = (c: FileChanges) => {
  const n = c.written.length + c.removed.length;
  return `${n} file${n === 1 ? '' : 's'} changed.`;
};

/** Whether DNS must republish every mail domain: what the zones derive from the settings moved. */
export function dnsFactsMoved(a: MailSettings, b: MailSettings): boolean {
  return (
    a.hostname !== b.hostname ||
    a.enableSPF !== b.enableSPF ||
    a.enableDMARC !== b.enableDMARC ||
    a.enableDKIM !== b.enableDKIM ||
    JSON.stringify(a.mxRecords) !== JSON.stringify(b.mxRecords)
  );
}
