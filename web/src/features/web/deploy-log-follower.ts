import type { AppLogEvent, DeployLog, DeployLogLine } from '@mailroom/contract/web';

/** What the deploy panel shows: the job's lines so far, in sequence order, and whether it ended. */
export interface DeployLogState {
  jobId: number | null;
  /** The job's state as last read (null: none yet, or no deploy ever). */
  state: string | null;
  lines: DeployLogLine[];
  /** Highest sequence number held: the next read asks for the lines after it. */
  lastSeq: number;
  done: boolean;
}

export const EMPTY_DEPLOY_LOG: DeployLogState = {
  jobId: null,
  state: null,
  lines: [],
  lastSeq: 0,
  done: false,
};

/**
 * Adds lines to those held: only sequence numbers above `lastSeq`, in order, never twice. When the
 * first new line is not `lastSeq + 1` some were missed (a reconnect, lines written before the
 * panel opened): nothing is added and `gap` says the route must be read from `lastSeq`.
 */
export function mergeDeployLines(
  held: readonly DeployLogLine[],
  lastSeq: number,
  incoming: readonly DeployLogLine[],
): { lines: DeployLogLine[]; lastSeq: number; gap: boolean } {
  const fresh = [...incoming].filter((l) => l.seq > lastSeq).sort((a, b) => a.seq - b.seq);
  const out = [...held];
  let seq = lastSeq;
  for (const l of fresh) {
    if (l.seq === seq) continue; // the same line twice in one answer
    if (l.seq !== seq + 1) return { lines: out, lastSeq: seq, gap: true };
    out.push(l);
    seq = l.seq;
  }
  return { lines: out, lastSeq: seq, gap: false };
}

/** Where the follower reads and listens (the deploy-log route and the events stream). */
export interface DeployLogSource {
  read: (q: { after: number; limit: number; jobId?: number }) => Promise<DeployLog>;
  subscribe: (h: {
    lines: (e: AppLogEvent) => void;
    /**
     * A job moved: `lastStored` is the seq of its last stored line (the job event's
     * `counts.logLines`), `ended` whether it finished. Read when there is more, or at its end.
     */
    job: (jobId: number, at: { lastStored?: number | undefined; ended: boolean }) => void;
    /** The stream (re)opened: lines may have been missed meanwhile. */
    ready: () => void;
  }) => () => void;
}

export interface FollowOptions {
  /** The application whose log it is. */
  name: string;
  /** The deploy or rollback job; absent: the application's latest. */
  jobId?: number | undefined;
  /** While no event arrives for this long, the route is read (a proxy that buffers, a lost stream). */
  pollMs?: number;
  /** Lines asked for per read (an answer this long may have more behind it: read on at once). */
  readLimit?: number;
  onChange: (s: DeployLogState) => void;
  onError?: (err: unknown) => void;
  /** Injectable clock and timers (tests). */
  now?: () => number;
  setInterval?: (fn: () => void, ms: number) => unknown;
  clearInterval?: (t: unknown) => void;
}

export const DEPLOY_LOG_POLL_MS = 2000;
export const DEPLOY_LOG_READ_LIMIT = 1000;

/**
 * Follows a deploy log until its job ends: the route from the last sequence number held (so
 * opening the panel again, or reloading the page, starts from line 1 and misses none), then on
 * every job event whose `counts.logLines` passed it, the job's end, a reopened stream or a quiet
 * stream, the route again from the last sequence number. `app-log` events carrying the lines
 * themselves (reserved in the contract) are taken too, a gap read from the route. Answers a stop
 * function.
 */
export function followDeployLog(source: DeployLogSource, opts: FollowOptions): () => void {
  const now = opts.now ?? Date.now;
  const every = opts.setInterval ?? ((fn: () => void, ms: number) => globalThis.setInterval(fn, ms));
  const cancel =
    opts.clearInterval ?? ((t: unknown) => globalThis.clearInterval(t as ReturnType<typeof setInterval>));
  const pollMs = opts.pollMs ?? DEPLOY_LOG_POLL_MS;
  const limit = opts.readLimit ?? DEPLOY_LOG_READ_LIMIT;
  let s: DeployLogState = { ...EMPTY_DEPLOY_LOG, jobId: opts.jobId ?? null };
  let stopped = false;
  let reading = false;
  let again = false;
  let lastHeard = now();

  const emit = () => {
    if (!stopped) opts.onChange(s);
  };

  const read = () => {
    if (stopped || s.done) return;
    if (reading) {
      again = true;
      return;
    }
    reading = true;
    again = false;
    const jobId = s.jobId ?? undefined;
    source.read({ after: s.lastSeq, limit, ...(jobId !== undefined ? { jobId } : {}) }).then(
      (log) => {
        reading = false;
        if (stopped) return;
        lastHeard = now();
        // No job yet (never deployed): nothing to follow.
        if (log.jobId === null) {
          s = { ...s, state: log.state, done: true };
          emit();
          finish();
          return;
        }
        const merged = mergeDeployLines(s.lines, s.lastSeq, log.lines);
        s = {
          jobId: log.jobId,
          state: log.state,
          lines: merged.lines,
          lastSeq: merged.lastSeq,
          // The server says done once the job ended and every line has been answered.
          done: log.done,
        };
        emit();
        if (s.done) finish();
        // A full answer may have more behind it; events that came during the read may have gaps.
        else if (again || log.lines.length >= limit || merged.gap) read();
      },
      (err: unknown) => {
        reading = false;
        if (stopped) return;
        opts.onError?.(err);
      },
    );
  };

  const unsubscribe = source.subscribe({
    lines: (e) => {
      if (stopped || s.done || e.name !== opts.name) return;
      if (s.jobId === null || e.jobId !== s.jobId) {
        // Which job is ours is not known yet (the first read is under way): it reads on after.
        if (s.jobId === null) read();
        return;
      }
      lastHeard = now();
      const merged = mergeDeployLines(s.lines, s.lastSeq, e.lines);
      if (merged.lastSeq !== s.lastSeq) {
        s = { ...s, lines: merged.lines, lastSeq: merged.lastSeq };
        emit();
      }
      if (merged.gap) read();
    },
    job: (jobId, at) => {
      if (s.jobId === null) {
        read();
        return;
      }
      if (jobId !== s.jobId) return;
      lastHeard = now();
      if (at.ended || at.lastStored === undefined || at.lastStored > s.lastSeq) read();
    },
    ready: read,
  });
  const timer = every(() => {
    if (now() - lastHeard >= pollMs) read();
  }, pollMs);

  function finish() {
    unsubscribe();
    cancel(timer);
  }

  read();
  return () => {
    stopped = true;
    finish();
  };
}
