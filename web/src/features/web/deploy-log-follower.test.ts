import type { AppLogEvent, DeployLog, DeployLogLine } from '@mailroom/contract/web';
import { describe, expect, it } from 'vitest';
import {
  followDeployLog,
  mergeDeployLines,
  type DeployLogSource,
  type DeployLogState,
} from './deploy-log-follower.ts';

const line = (seq: number): DeployLogLine => ({
  seq,
  at: '2026-11-27T12:00:00Z',
  stream: 'stdout',
  text: `line ${seq}`,
});
const lines = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => line(from + i));
const seqs = (s: DeployLogState) => s.lines.map((l) => l.seq);

/** A server's deploy-log route over a job's whole log, and a hand-driven events stream. */
function fakeServer(opts: { jobId?: number | null; limit?: number } = {}) {
  const log: DeployLogLine[] = [];
  let done = false;
  const reads: { after: number; limit: number; jobId?: number }[] = [];
  let handlers: Parameters<DeployLogSource['subscribe']>[0] | null = null;
  let unsubscribed = false;
  const pendingReads: (() => void)[] = [];
  let hold = false;
  const jobId = opts.jobId === undefined ? 7 : opts.jobId;
  const source: DeployLogSource = {
    read: (q) => {
      reads.push(q);
      const answer = (): DeployLog => {
        const after = log.filter((l) => l.seq > q.after).slice(0, Math.min(q.limit, opts.limit ?? 5000));
        const last = log.at(-1)?.seq ?? 0;
        return {
          jobId,
          state: done ? 'succeeded' : 'running',
          lines: after,
          lastSeq: after.at(-1)?.seq ?? q.after,
          done: done && (after.at(-1)?.seq ?? q.after) >= last,
        };
      };
      if (!hold) return Promise.resolve(answer());
      return new Promise((resolve) => pendingReads.push(() => resolve(answer())));
    },
    subscribe: (h) => {
      handlers = h;
      return () => {
        unsubscribed = true;
      };
    },
  };
  return {
    source,
    reads,
    write: (...l: DeployLogLine[]) => log.push(...l),
    end: () => {
      done = true;
    },
    event: (e: Partial<AppLogEvent> & { lines: DeployLogLine[] }) =>
      handlers?.lines({ applicationId: 1, name: 'shop', jobId: 7, ...e }),
    jobChanged: (id: number, at: { lastStored?: number; ended: boolean } = { ended: false }) =>
      handlers?.job(id, at),
    ready: () => handlers?.ready(),
    hold: (v: boolean) => {
      hold = v;
    },
    release: async () => {
      while (pendingReads.length) pendingReads.shift()?.();
      await flush();
    },
    get unsubscribed() {
      return unsubscribed;
    },
  };
}

const flush = async () => {
  for (let i = 0; i < 10; i++) await Promise.resolve();
};

function follow(server: ReturnType<typeof fakeServer>, jobId?: number, readLimit = 1000) {
  let state: DeployLogState | null = null;
  let tick: (() => void) | null = null;
  let clock = 0;
  const stop = followDeployLog(server.source, {
    name: 'shop',
    jobId,
    pollMs: 2000,
    readLimit,
    onChange: (s) => {
      state = s;
    },
    now: () => clock,
    setInterval: (fn) => {
      tick = fn;
      return 1;
    },
    clearInterval: () => {
      tick = null;
    },
  });
  return {
    stop,
    get state(): DeployLogState {
      if (!state) throw new Error('no state yet');
      return state;
    },
    advance: async (ms: number) => {
      clock += ms;
      tick?.();
      await flush();
    },
    get polling() {
      return tick !== null;
    },
  };
}

describe('mergeDeployLines', () => {
  it('adds only the lines after the last sequence number, in order, once', () => {
    const r = mergeDeployLines(lines(1, 3), 3, [line(5), line(3), line(4), line(4)]);
    expect(r.lines.map((l) => l.seq)).toEqual([1, 2, 3, 4, 5]);
    expect(r).toMatchObject({ lastSeq: 5, gap: false });
  });

  it('adds nothing past a gap and says so', () => {
    const r = mergeDeployLines(lines(1, 3), 3, [line(6), line(7)]);
    expect(r.lines.map((l) => l.seq)).toEqual([1, 2, 3]);
    expect(r).toMatchObject({ lastSeq: 3, gap: true });
  });
});

describe('followDeployLog', () => {
  it('reads the log from line 1, then takes new lines from the events', async () => {
    const server = fakeServer();
    server.write(...lines(1, 3));
    const f = follow(server, 7);
    await flush();
    expect(seqs(f.state)).toEqual([1, 2, 3]);
    expect(server.reads).toEqual([{ after: 0, limit: 1000, jobId: 7 }]);
    server.write(line(4), line(5));
    server.event({ lines: [line(4), line(5)] });
    expect(seqs(f.state)).toEqual([1, 2, 3, 4, 5]);
    // Another application's or another job's lines are not ours.
    server.event({ name: 'blog', lines: [line(6)] });
    server.event({ jobId: 8, lines: [line(6)] });
    expect(seqs(f.state)).toEqual([1, 2, 3, 4, 5]);
    expect(server.reads).toHaveLength(1);
  });

  it('reads the route again from the last sequence number when events skip lines', async () => {
    const server = fakeServer();
    server.write(...lines(1, 2));
    const f = follow(server, 7);
    await flush();
    server.write(...lines(3, 6));
    // Lines 3 and 4 were sent while the stream was reconnecting: only 5 and 6 arrive.
    server.event({ lines: [line(5), line(6)] });
    await flush();
    expect(server.reads.at(-1)).toEqual({ after: 2, limit: 1000, jobId: 7 });
    expect(seqs(f.state)).toEqual([1, 2, 3, 4, 5, 6]);
  });

  it('loses no line written while the first read is under way', async () => {
    const server = fakeServer();
    server.write(...lines(1, 2));
    server.hold(true);
    const f = follow(server, 7);
    server.write(line(3));
    server.event({ lines: [line(3)] }); // before the read answered: a gap from 0
    server.hold(false);
    await server.release();
    await flush();
    expect(seqs(f.state)).toEqual([1, 2, 3]);
  });

  it('reads the rest on the stream’s reopening, on a quiet stream, and at the job’s end, then stops', async () => {
    const server = fakeServer();
    server.write(line(1));
    const f = follow(server, 7);
    await flush();
    server.write(line(2));
    server.ready();
    await flush();
    expect(seqs(f.state)).toEqual([1, 2]);
    server.write(line(3)); // no event for it (a proxy buffering the stream)
    await f.advance(1000);
    expect(seqs(f.state)).toEqual([1, 2]);
    await f.advance(1000);
    expect(seqs(f.state)).toEqual([1, 2, 3]);
    server.write(line(4));
    server.end();
    server.jobChanged(7, { lastStored: 4, ended: true });
    await flush();
    expect(f.state).toMatchObject({ done: true, state: 'succeeded', lastSeq: 4 });
    expect(server.unsubscribed).toBe(true);
    expect(f.polling).toBe(false);
  });

  it('reads when the job event says more lines are stored than held, not otherwise', async () => {
    const server = fakeServer();
    server.write(...lines(1, 2));
    const f = follow(server, 7);
    await flush();
    expect(server.reads).toHaveLength(1);
    server.jobChanged(7, { lastStored: 2, ended: false }); // progress only: nothing new
    server.jobChanged(8, { lastStored: 9, ended: false }); // another job
    await flush();
    expect(server.reads).toHaveLength(1);
    server.write(...lines(3, 5));
    server.jobChanged(7, { lastStored: 5, ended: false });
    await flush();
    expect(server.reads.at(-1)).toMatchObject({ after: 2, jobId: 7 });
    expect(seqs(f.state)).toEqual([1, 2, 3, 4, 5]);
  });

  it('reads on when an answer is cut at its limit, and is done only with every line', async () => {
    const server = fakeServer();
    server.write(...lines(1, 5));
    server.end();
    const f = follow(server, 7, 2);
    await flush();
    expect(seqs(f.state)).toEqual([1, 2, 3, 4, 5]);
    expect(f.state.done).toBe(true);
    expect(server.reads.map((r) => r.after)).toEqual([0, 2, 4]);
    expect(server.reads.every((r) => r.limit === 2)).toBe(true);
  });

  it('after a page reload, a new follower of the same job has every line from the first', async () => {
    const server = fakeServer();
    server.write(...lines(1, 4));
    const before = follow(server, 7);
    await flush();
    before.stop(); // the page went away
    server.write(...lines(5, 6));
    const after = follow(server, 7);
    await flush();
    expect(seqs(after.state)).toEqual([1, 2, 3, 4, 5, 6]);
    server.write(line(7));
    server.event({ lines: [line(7)] });
    expect(seqs(after.state)).toEqual([1, 2, 3, 4, 5, 6, 7]);
  });

  it('follows the latest job when none is named, and says when there was never a deploy', async () => {
    const server = fakeServer();
    server.write(line(1));
    const f = follow(server);
    await flush();
    expect(server.reads[0]).toEqual({ after: 0, limit: 1000 });
    expect(f.state.jobId).toBe(7);
    await f.advance(2000);
    expect(server.reads.at(-1)).toEqual({ after: 1, limit: 1000, jobId: 7 });

    const none = fakeServer({ jobId: null });
    const g = follow(none);
    await flush();
    expect(g.state).toMatchObject({ jobId: null, done: true, lines: [] });
    expect(none.unsubscribed).toBe(true);
  });
});
