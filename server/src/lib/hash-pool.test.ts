import { afterAll, describe, expect, it } from 'vitest';
import { HashPool } from './hash-pool.ts';
import { verifyPassword } from './password-hash.ts';

describe('HashPool', () => {
  const pool = new HashPool(1);
  afterAll(() => pool.close());

  it('hashes argon2id the way Dovecot reads it, off the event loop', async () => {
    const hash = await pool.hash('correct-horse-battery');
    expect(hash).toMatch(/^\{ARGON2ID\}\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(await verifyPassword(hash, 'correct-horse-battery')).toBe(true);
    expect(await verifyPassword(hash, 'wrong')).toBe(false);
  });

  it('puts an interactive hash ahead of a bulk run’s background hashes already queued', async () => {
    const done: string[] = [];
    const track = (name: string, p: Promise<string>) => p.then(() => done.push(name));
    const all = [
      track('bg1', pool.hash('background-1', 'background')),
      track('bg2', pool.hash('background-2', 'background')),
      track('bg3', pool.hash('background-3', 'background')),
      track('bg4', pool.hash('background-4', 'background')),
    ];
    all.push(track('single create', pool.hash('interactive-1')));
    all.push(track('password change', pool.hash('interactive-2')));
    await Promise.all(all);
    // bg1 was already on the only worker; the two interactive ones, in their order, come next.
    expect(done).toEqual(['bg1', 'single create', 'password change', 'bg2', 'bg3', 'bg4']);
  });
});
