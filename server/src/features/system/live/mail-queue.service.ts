import type { QueueMessage } from '@mailroom/contract/system-live';
import type { AppDeps } from '../../../app-deps.ts';
import { notFound } from '../../../http/errors.ts';

/** Postfix's configuration folder Mailroom renders (under the host root; /etc/postfix in system mode). */
export const postfixDir = (deps: AppDeps) => deps.host.path('/etc/postfix');

async function tool(deps: AppDeps, name: string): Promise<string | null> {
  return deps.host.which(name);
}

const output = (r: { stdout: string; stderr: string; code: number }) =>
  (r.stderr.trim() || r.stdout.trim() || `exit ${r.code}`).slice(0, 500);

/** One `postqueue -j` line (JSON per message) in the contract's shape. */
export function parseQueueLine(line: string): QueueMessage | null {
  try {
    const j = JSON.parse(line) as {
      queue_name?: string;
      queue_id?: string;
      arrival_time?: number;
      message_size?: number;
      sender?: string;
      recipients?: { address?: string; delay_reason?: string }[];
    };
    if (!j.queue_id) return null;
    return {
      id: j.queue_id,
      queue: j.queue_name ?? 'unknown',
      arrivalTime: new Date((j.arrival_time ?? 0) * 1000).toISOString(),
      size: j.message_size ?? 0,
      sender: j.sender ?? '',
      recipients: (j.recipients ?? []).map((r) => ({
        address: r.address ?? '',
        reason: r.delay_reason ?? null,
      })),
    };
  } catch {
    return null;
  }
}

export async function listQueue(
  deps: AppDeps,
): Promise<{ messages: QueueMessage[]; unavailable: string | null }> {
  const postqueue = await tool(deps, 'postqueue');
  if (!postqueue) return { messages: [], unavailable: 'Postfix is not installed (Debian package postfix).' };
  const dir = postfixDir(deps);
  const r = await deps.host.run(postqueue, ['-c', dir, '-j'], { timeoutMs: 30_000 });
  const messages = r.stdout
    .split('\n')
    .map(parseQueueLine)
    .filter((m): m is QueueMessage => m !== null);
  if (r.code !== 0 && messages.length === 0)
    return { messages, unavailable: `postqueue -c ${dir} -j failed: ${output(r)}` };
  return { messages, unavailable: null };
}

export async function showQueued(deps: AppDeps, id: string): Promise<string> {
  const postcat = await tool(deps, 'postcat');
  if (!postcat) throw notFound('Postfix is not installed (Debian package postfix).');
  const r = await deps.host.run(postcat, ['-c', postfixDir(deps), '-q', id]);
  if (r.code !== 0) throw notFound(`No message ${id} in the queue.`);
  return r.stdout;
}

export async function superviseQueued(deps: AppDeps, id: string, action: 'delete' | 'requeue') {
  const postsuper = await tool(deps, 'postsuper');
  if (!postsuper) return { ok: false, message: 'Postfix is not installed (Debian package postfix).' };
  const r = await deps.host.run(postsuper, ['-c', postfixDir(deps), action === 'delete' ? '-d' : '-r', id]);
  const out = output(r);
  // postsuper reports "Deleted: 1 message" / "Requeued: 1 message" on stderr, nothing when not found.
  const done = /(Deleted|Requeued): \d+ message/.test(out);
  if (r.code === 0 && done && !/: 0 messages/.test(out)) return { ok: true, message: out };
  if (r.code !== 0) return { ok: false, message: `postsuper failed: ${out}` };
  // Nothing changed: either no such message, or one postsuper leaves alone (still in maildrop,
  // waiting for Postfix's pickup service).
  const still = (await listQueue(deps)).messages.find((m) => m.id === id);
  if (!still) throw notFound(`No message ${id} in the queue.`);
  return {
    ok: false,
    message: `postsuper changed nothing (${out})${still.queue === 'maildrop' ? `: ${id} is still in maildrop, waiting for Postfix's pickup service (is Postfix running?)` : ''}.`,
  };
}

export async function flushQueue(deps: AppDeps) {
  const postqueue = await tool(deps, 'postqueue');
  if (!postqueue) return { ok: false, message: 'Postfix is not installed (Debian package postfix).' };
  const r = await deps.host.run(postqueue, ['-c', postfixDir(deps), '-f']);
  return r.code === 0
    ? { ok: true, message: 'Delivery of every queued message was attempted (postqueue -f).' }
    : { ok: false, message: `postqueue -f failed: ${output(r)}` };
}
