import type { DeployLogLine } from '@mailroom/contract/web/applications';
import type { AppDeps } from '../../../app-deps.ts';
import type { ApplicationService } from './application.service.ts';
import { appendLogLines } from './release.repository.ts';

/** The job runner's shapes (through AppDeps: features do not import each other). */
export type JobRunner = NonNullable<AppDeps['jobs']>;
export type JobContext = Parameters<Parameters<JobRunner['run']>[3]>[0];

/** Lines kept per deploy log (the rest is counted, not stored). */
export const MAX_LOG_LINES = 20_000;
const FLUSH_MS = 200;

/** The deploy log of one job: numbered lines, written to the database in small batches. */
export class DeployLogger {
  private seq = 0;
  private pending: DeployLogLine[] = [];
  private flushing: Promise<void> = Promise.resolve();
  private timer: NodeJS.Timeout | null = null;
  readonly all: string[] = [];

  constructor(
    private readonly svc: ApplicationService,
    private readonly appId: number,
    private readonly job: JobContext,
  ) {}

  private get jobId(): number {
    return this.job.jobId;
  }

  line(stream: DeployLogLine['stream'], text: string): void {
    if (this.seq >= MAX_LOG_LINES) return;
    const l = { seq: ++this.seq, at: new Date().toISOString(), stream, text: text.slice(0, 4000) };
    this.pending.push(l);
    this.all.push(stream === 'info' ? `» ${l.text}` : l.text);
    this.timer ??= setTimeout(() => void this.flush(), FLUSH_MS);
  }

  info(text: string): void {
    this.line('info', text);
  }

  flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const batch = this.pending;
    this.pending = [];
    const last = this.seq;
    this.flushing = this.flushing.then(async () => {
      await appendLogLines(this.svc.db, this.appId, this.jobId, batch);
      // The job's event on /api/events carries the last stored line: the console then reads
      // GET …/deploy-log?after=<the last seq it has>.
      this.job.progress({ counts: { logLines: last } });
    });
    return this.flushing;
  }

  tail(n: number): string {
    return this.all.slice(-n).join('\n');
  }
}
