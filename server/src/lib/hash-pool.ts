import { createRequire } from 'node:module';
import os from 'node:os';
import { Worker } from 'node:worker_threads';
import { ARGON2_OPTIONS } from './password-hash.ts';

// Plain JavaScript so the worker runs the same under tsx, vitest and node; argon2 is resolved
// from this package and handed over by path.
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const { hashSync } = require(workerData.argon2);
parentPort.on('message', (m) => {
  try {
    parentPort.postMessage({ id: m.id, hash: '{ARGON2ID}' + hashSync(m.password, workerData.options) });
  } catch (err) {
    parentPort.postMessage({ id: m.id, error: String(err && err.message ? err.message : err) });
  }
});
`;

/**
 * `interactive` (the default): someone waits for this hash (a create, a password change).
 * `background`: a bulk run's; it waits behind every interactive hash, so a bulk run of thousands
 * never holds up the single create an administrator makes meanwhile.
 */
export type HashPriority = 'interactive' | 'background';

interface Task {
  id: number;
  password: string;
  priority: HashPriority;
  resolve(hash: string): void;
  reject(err: Error): void;
}

interface Slot {
  worker: Worker;
  task: Task | null;
}

/**
 * argon2id hashing on `size` worker threads, so creating many mailboxes uses every core.
 * Idle workers are unref'd: an unused pool never keeps the process alive.
 */
export class HashPool {
  private readonly slots: Slot[] = [];
  private readonly queue: Task[] = [];
  private nextId = 1;
  private closed = false;

  constructor(readonly size: number = os.availableParallelism()) {
    if (!Number.isInteger(size) || size < 1) throw new Error('hash pool size must be at least 1');
  }

  hash(password: string, priority: HashPriority = 'interactive'): Promise<string> {
    if (this.closed) return Promise.reject(new Error('hash pool is closed'));
    return new Promise((resolve, reject) => {
      const task = { id: this.nextId++, password, priority, resolve, reject };
      if (priority === 'background') this.queue.push(task);
      else {
        // Ahead of the background tasks, behind the interactive ones already waiting.
        const at = this.queue.findIndex((t) => t.priority === 'background');
        this.queue.splice(at === -1 ? this.queue.length : at, 0, task);
      }
      this.pump();
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const t of this.queue.splice(0)) t.reject(new Error('hash pool is closed'));
    await Promise.all(this.slots.splice(0).map((s) => s.worker.terminate()));
  }

  private pump(): void {
    while (this.queue.length) {
      const slot = this.slots.find((s) => !s.task) ?? (this.slots.length < this.size ? this.spawn() : null);
      if (!slot) return;
      const task = this.queue.shift()!;
      slot.task = task;
      slot.worker.ref();
      slot.worker.postMessage({ id: task.id, password: task.password });
    }
  }

  private spawn(): Slot {
    const worker = new Worker(WORKER_SOURCE, {
      eval: true,
      workerData: {
        argon2: createRequire(import.meta.url).resolve('@node-rs/argon2'),
        options: ARGON2_OPTIONS,
      },
    });
    const slot: Slot = { worker, task: null };
    worker.on('message', (m: { id: number; hash?: string; error?: string }) => {
      const task = slot.task;
      slot.task = null;
      worker.unref();
      if (task && task.id === m.id) {
        if (m.hash !== undefined) task.resolve(m.hash);
        else task.reject(new Error(m.error ?? 'hashing failed'));
      }
      this.pump();
    });
    worker.on('error', (err) => {
      const task = slot.task;
      slot.task = null;
      this.slots.splice(this.slots.indexOf(slot), 1);
      task?.reject(err);
      this.pump();
    });
    this.slots.push(slot);
    return slot;
  }
}

let shared: HashPool | null = null;

/** The process-wide pool, one worker per core. */
export function sharedHashPool(): HashPool {
  shared ??= new HashPool();
  return shared;
}
