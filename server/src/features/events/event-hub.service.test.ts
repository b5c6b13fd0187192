import type { Kysely } from 'kysely';
import { describe, expect, it } from 'vitest';
import type { Database } from '../../db/schema.ts';
import type { EventRelay } from '../../host/cluster-events.ts';
import { EventHub, type JobFeed, type ServerEvent } from './event-hub.service.ts';

const noJobs: JobFeed = { onChange: () => () => undefined, recent: async () => [] };
// Never read: the poll runs every hour here.
const db = {} as Kysely<Database>;
const progress = (saveId: string, seq: number): ServerEvent & { type: 'mail-save' } => ({
  type: 'mail-save',
  data: { saveId, seq, steps: [{ name: 'postconf', state: 'running', detail: '', ms: null }], done: false },
});

describe('EventHub live events (issue 22 #17)', () => {
  it('sends a published event to its streams at once and through the relay to the other processes', () => {
    const relayed: unknown[] = [];
    let deliver: (e: unknown) => void = () => undefined;
    let closed = false;
    const relay = (d: (e: unknown) => void): EventRelay => {
      deliver = d;
      return { send: (e) => relayed.push(e), close: () => (closed = true) };
    };
    const hub = new EventHub(db, noJobs, { pollMs: 3_600_000 }, relay);
    const got: ServerEvent[] = [];
    hub.subscribe((e) => got.push(e));
    hub.publish(progress('a1b2c3d4', 1));
    expect(got).toEqual([progress('a1b2c3d4', 1)]);
    expect(relayed).toEqual([progress('a1b2c3d4', 1)]);
    // Another worker's event reaches this process's streams, and is not sent back out.
    deliver(progress('e5f6a7b8', 1));
    expect(got.at(-1)).toEqual(progress('e5f6a7b8', 1));
    expect(relayed).toHaveLength(1);
    // Only live events cross: anything else from the relay is dropped.
    deliver({ type: 'job', data: { id: 1 } });
    deliver('junk');
    expect(got).toHaveLength(2);
    hub.close();
    expect(closed).toBe(true);
  });

  it('without a relay (one process) publishing only reaches this process’s streams', () => {
    const hub = new EventHub(db, noJobs, { pollMs: 3_600_000 });
    const got: ServerEvent[] = [];
    const stop = hub.subscribe((e) => got.push(e));
    hub.publish(progress('a1b2c3d4', 1));
    stop();
    hub.publish(progress('a1b2c3d4', 2));
    expect(got).toEqual([progress('a1b2c3d4', 1)]);
    hub.close();
  });
});
