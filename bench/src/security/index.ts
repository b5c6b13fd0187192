import { parseCaa, RecordAddRequest } from '@mailroom/contract/dns';
import { CreateAliasRequest } from '@mailroom/contract/mail';
import { isEmailAddress } from '@mailroom/contract/validators';
import type { BenchRow, BenchSuite } from '../suite.ts';

/** Median wall time of `fn` in ms over `runs` runs. */
function time(fn: () => unknown, runs = 7): number {
  const samples: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    fn();
    samples.push(performance.now() - t0);
  }
  samples.sort((a, b) => a - b);
  return samples[Math.floor(samples.length / 2)]!;
}

// The CAA pattern before the sweep fix, for comparison at a size it survives.
const OLD_CAA = /^\s*(\d{1,3})\s+([A-Za-z0-9]+)\s+(.+?)\s*$/;
const OLD_EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

const hostileCaa = (n: number) => `0 issue a${' '.repeat(n)}b`;
const hostileEmail = (n: number) => `a@${'.'.repeat(n)} `;

/**
 * Checks over user input must be linear: each hostile input is timed at 10k and 100k characters;
 * a linear check grows about 10× (goal: at most 20×), a quadratic one 100×.
 */
const suite: BenchSuite = {
  name: 'security',
  description: 'Validators on hostile input: linear growth (CAA, email, record and alias schemas)',
  async run(ctx) {
    const rows: BenchRow[] = [];
    const cases: [string, (n: number) => unknown][] = [
      ['parseCaa', (n) => parseCaa(hostileCaa(n))],
      ['isEmailAddress', (n) => isEmailAddress(hostileEmail(n))],
      [
        'RecordAddRequest (CAA)',
        (n) =>
          RecordAddRequest.safeParse({
            zone: 'example.com',
            qname: '@',
            rtype: 'CAA',
            value: hostileCaa(n),
            ttl: 300,
          }),
      ],
      [
        'CreateAliasRequest',
        (n) => CreateAliasRequest.safeParse({ source: hostileEmail(n), destination: hostileEmail(n) }),
      ],
    ];
    for (const [name, fn] of cases) {
      const small = time(() => fn(10_000));
      const large = time(() => fn(100_000));
      const growth = large / Math.max(small, 0.001);
      ctx.log(`${name}: ${small.toFixed(3)} ms at 10k, ${large.toFixed(3)} ms at 100k`);
      rows.push({
        measure: `${name}, 100k hostile characters`,
        value: `${large.toFixed(2)} ms (×${growth.toFixed(1)} from 10k)`,
        goal: '≤ ×20 growth, < 50 ms',
        pass: (growth <= 20 || large < 1) && large < 50,
        raw: { ms10k: small, ms100k: large },
      });
    }
    const oldCaa = time(() => OLD_CAA.exec(hostileCaa(10_000)), 3);
    const oldEmail = time(() => OLD_EMAIL.test(hostileEmail(10_000)), 3);
    rows.push({
      measure: 'before the fix: CAA pattern, 10k hostile characters',
      value: `${oldCaa.toFixed(1)} ms`,
      raw: { ms10k: oldCaa },
    });
    rows.push({
      measure: 'before the fix: email pattern, 10k hostile characters',
      value: `${oldEmail.toFixed(1)} ms`,
      raw: { ms10k: oldEmail },
    });
    return rows;
  },
};

export default suite;
