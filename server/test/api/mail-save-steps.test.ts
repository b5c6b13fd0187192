import { readFileSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dialects, startTestApp, type TestContext } from '../harness.ts';

/**
 * Issue 22 #17: a mail settings save's steps reach the events stream as they change, under the
 * saveId the page sent, before the save answers.
 */

const HAS_POSTCONF = ['/usr/sbin/postconf', '/usr/bin/postconf'].some((p) => {
  try {
    readFileSync(p);
    return true;
  } catch {
    return false;
  }
});

interface Step {
  name: string;
  state: string;
  detail: string;
  ms: number | null;
}
interface Progress {
  saveId: string;
  seq: number;
  steps: Step[];
  done: boolean;
}
/** What the test saw, in the order it saw it: stream events and the save's answer. */
type Seen = { kind: 'event'; p: Progress } | { kind: 'answer'; status: number };

async function until<T>(what: string, f: () => T | undefined, ms = 20_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = f();
    if (v !== undefined) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe.each(dialects())('mail settings save steps on the events stream (%s)', (dialect) => {
  let t: TestContext;
  let base: string;
  const seen: Seen[] = [];
  let otherSaves = 0;
  let ready = false;
  const ac = new AbortController();
  let reading: Promise<void>;

  beforeAll(async () => {
    t = await startTestApp(dialect);
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    const res = await fetch(`${base}/api/events`, {
      headers: { authorization: `Bearer ${t.token}` },
      signal: ac.signal,
    });
    expect(res.status).toBe(200);
    reading = (async () => {
      const decoder = new TextDecoder();
      let buf = '';
      try {
        for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
          buf += decoder.decode(chunk, { stream: true });
          let cut;
          while ((cut = buf.indexOf('\n\n')) !== -1) {
            const block = buf.slice(0, cut);
            buf = buf.slice(cut + 2);
            const event = /^event: (.*)$/m.exec(block)?.[1];
            const data = /^data: (.*)$/m.exec(block)?.[1];
            if (event === 'ready') ready = true;
            if (event === 'mail-save' && data) {
              const p = JSON.parse(data) as Progress;
              if (p.saveId.startsWith('test-')) seen.push({ kind: 'event', p });
              else otherSaves++;
            }
          }
        }
      } catch {
        /* aborted */
      }
    })();
    await until('the stream to open', () => (ready ? true : undefined));
  });
  afterAll(async () => {
    ac.abort();
    await reading;
    await t.close();
  });

  const settingsNow = async () => {
    const res = await t.call({ method: 'GET', url: '/api/mail/settings' });
    expect(res.statusCode).toBe(200);
    return res.json<{ version: number; settings: Record<string, unknown> }>();
  };

  /** Saves through the network (as the page does) and notes when the answer arrived among the events. */
  const saveOverHttp = async (body: object) => {
    const res = await fetch(`${base}/api/mail/settings`, {
      method: 'POST',
      headers: { authorization: `Bearer ${t.token}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    const json = (await res.json()) as { steps?: Step[]; details?: { steps?: Step[] } };
    seen.push({ kind: 'answer', status: res.status });
    return { status: res.status, json };
  };
  const eventsOf = (saveId: string) =>
    seen.flatMap((s) => (s.kind === 'event' && s.p.saveId === saveId ? [s.p] : []));

  it('sends every step as it changes, in order, before the save answers; the last event carries the answer’s steps', async () => {
    const { version, settings } = await settingsNow();
    const saveId = 'test-save-ok-1';
    const from = seen.length;
    const { status, json } = await saveOverHttp({
      version,
      settings: { ...settings, maxRecipients: 77 },
      saveId,
    });
    expect(status, JSON.stringify(json)).toBe(200);
    // The last event is written before the answer, but comes on another connection: allow it a moment.
    await until('the last event', () => (eventsOf(saveId).some((e) => e.done) ? true : undefined), 5000);
    const mine = seen.slice(from);
    const answerAt = mine.findIndex((s) => s.kind === 'answer');
    const events = eventsOf(saveId);
    // Every step event of this save came before its answer.
    expect(events.length).toBeGreaterThan(3);
    const beforeAnswer = mine.slice(0, answerAt).filter((s) => s.kind === 'event');
    expect(beforeAnswer.length, 'events seen before the answer').toBeGreaterThanOrEqual(events.length - 1);
    expect(events.map((e) => e.seq)).toEqual(events.map((_e, i) => i + 1));
    // The first event lists the planned steps, none run yet.
    expect(events[0]!.done).toBe(false);
    expect(events[0]!.steps.map((s) => [s.name, s.state])).toEqual([
      ['Prepare the mail host', 'pending'],
      ['Save the settings', 'pending'],
      ['Put the files live', 'pending'],
    ]);
    // Each step is seen running before its end; a step never goes back.
    const order = ['pending', 'running', 'passed'];
    for (const name of ['Save the settings', 'Put the files live', ...(HAS_POSTCONF ? ['postconf'] : [])]) {
      const states = events.flatMap((e) => e.steps.filter((s) => s.name === name).map((s) => s.state));
      expect(states, name).toContain('running');
      const ranks = [...new Set(states)].map((s) => order.indexOf(s));
      expect(ranks, `${name}: ${states.join(' → ')}`).toEqual([...ranks].sort((a, b) => a - b));
    }
    // While it runs a step has no time; a step that did not run is never 'passed'.
    for (const e of events)
      for (const s of e.steps) if (s.state === 'running' || s.state === 'pending') expect(s.ms).toBeNull();
    // The last event is the answer's steps, marked done.
    const last = events.at(-1)!;
    expect(last.done).toBe(true);
    expect(last.steps).toEqual(json.steps);
    expect(events.slice(0, -1).every((e) => !e.done)).toBe(true);
  });

  it.runIf(HAS_POSTCONF)(
    'a refused check: the events end with the check failed and the save not run',
    async () => {
      const main = t.deps.host.path('/etc/postfix/main.cf');
      const good = readFileSync(main, 'utf8');
      writeFileSync(main, `${good}this line is not a parameter\n`);
      try {
        const { version, settings } = await settingsNow();
        const saveId = 'test-save-refused';
        const { status, json } = await saveOverHttp({
          version,
          settings: { ...settings, maxRecipients: 78 },
          saveId,
        });
        expect(status).toBe(422);
        await until('the last event', () => (eventsOf(saveId).some((e) => e.done) ? true : undefined), 5000);
        const events = eventsOf(saveId);
        const last = events.at(-1)!;
        expect(last.done).toBe(true);
        expect(last.steps).toEqual(json.details?.steps);
        const state = (name: string) => last.steps.find((s) => s.name === name)?.state;
        expect(state('postconf')).toBe('failed');
        expect(state('Save the settings')).toBe('not-run');
        expect(state('Put the files live')).toBe('not-run');
        // postconf was seen running before it failed.
        expect(events.some((e) => e.steps.some((s) => s.name === 'postconf' && s.state === 'running'))).toBe(
          true,
        );
      } finally {
        writeFileSync(main, good);
      }
    },
  );

  it('sends nothing for a save without a saveId, and refuses a malformed one naming the field', async () => {
    const { version, settings } = await settingsNow();
    const before = seen.length;
    const others = otherSaves;
    const ok = await t.call({
      method: 'POST',
      url: '/api/mail/settings',
      payload: { version, settings: { ...settings, maxRecipients: 79 } },
    });
    expect(ok.statusCode).toBe(200);
    expect(seen.slice(before).filter((s) => s.kind === 'event')).toEqual([]);
    expect(otherSaves).toBe(others);
    const bad = await t.call({
      method: 'POST',
      url: '/api/mail/settings',
      payload: { version: version + 1, settings, saveId: 'no spaces <allowed>' },
    });
    expect(bad.statusCode).toBe(400);
    expect(JSON.stringify(bad.json())).toContain('saveId');
  });
});
