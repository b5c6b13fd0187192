import { describe, expect, it } from 'vitest';
import { inProcessTargetLock } from './target-lock.ts';

describe('inProcessTargetLock', () => {
  it('runs applies of one target one after another, and of different targets side by side', async () => {
    const lock = inProcessTargetLock();
    const events: string[] = [];
    let releaseMail!: () => void;
    const mailGate = new Promise<void>((r) => (releaseMail = r));
    const first = lock.withTargetLock('mail', async () => {
      events.push('mail-1 start');
      await mailGate;
      events.push('mail-1 end');
    });
    const second = lock.withTargetLock('mail', async () => {
      events.push('mail-2 start');
    });
    const dns = lock.withTargetLock('dns', async () => {
      events.push('dns start');
    });
    await dns;
    expect(events).toEqual(['mail-1 start', 'dns start']);
    releaseMail();
    await Promise.all([first, second]);
    expect(events).toEqual(['mail-1 start', 'dns start', 'mail-1 end', 'mail-2 start']);
  });

  it('a failed apply does not block the next one', async () => {
    const lock = inProcessTargetLock();
    await expect(lock.withTargetLock('mail', () => Promise.reject(new Error('boom')))).rejects.toThrow(
      'boom',
    );
    await expect(lock.withTargetLock('mail', async () => 'ok')).resolves.toBe('ok');
  });
});
