import { describe, expect, it } from 'vitest';
import { SCALE_RULE, type ScaleInput, scaleDecision } from './app-scaling.service.ts';

const base: ScaleInput = {
  current: 2,
  enableLoadBalancing: true,
  enableScaling: true,
  minInstances: 2,
  maxInstances: 4,
  requestsPerMinute: 0,
  lowChecks: 0,
};

/** Drives the rule check after check with the figures given (one per check), as the module's clock would. */
function run(start: ScaleInput, rpmPerCheck: number[]): number[] {
  let s = { ...start };
  const counts: number[] = [];
  for (const rpm of rpmPerCheck) {
    const d = scaleDecision({ ...s, requestsPerMinute: rpm });
    s = { ...s, current: d.target, lowChecks: d.lowChecks };
    counts.push(d.target);
  }
  return counts;
}

describe('the scaling rule of web applications', () => {
  it('adds one instance per check while requests per instance per minute exceed the threshold, up to Max Instances', () => {
    const hot = (SCALE_RULE.upPerInstance + 1) * 10;
    expect(run(base, [hot, hot, hot, hot])).toEqual([3, 4, 4, 4]);
    const d = scaleDecision({ ...base, requestsPerMinute: hot });
    expect(d.reason).toMatch(/requests per instance per minute > 300/);
  });

  it('at the threshold exactly nothing changes', () => {
    expect(scaleDecision({ ...base, requestsPerMinute: SCALE_RULE.upPerInstance * 2 }).target).toBe(2);
  });

  it('removes one only after the low load held on downAfterChecks checks in a row, never below Min Instances', () => {
    const quiet = 0;
    const busyEnough = SCALE_RULE.downPerInstance * 4 * 2;
    // A busy check in between resets the count.
    expect(run({ ...base, current: 4 }, [quiet, quiet, busyEnough, quiet, quiet, quiet])).toEqual([
      4, 4, 4, 4, 4, 3,
    ]);
    expect(run({ ...base, current: 3 }, [quiet, quiet, quiet, quiet, quiet, quiet, quiet])).toEqual([
      3, 3, 2, 2, 2, 2, 2,
    ]);
  });

  it('a count outside Min..Max (the fields were edited) is brought back, scaling on or off', () => {
    expect(scaleDecision({ ...base, current: 1 }).target).toBe(2);
    expect(scaleDecision({ ...base, current: 6, enableScaling: false }).target).toBe(4);
    expect(scaleDecision({ ...base, current: 3, enableScaling: false, requestsPerMinute: 1e6 }).target).toBe(
      3,
    );
  });

  it('without Enable Load Balancing: one instance whatever the load', () => {
    const off = { ...base, enableLoadBalancing: false, current: 1 };
    expect(scaleDecision({ ...off, requestsPerMinute: 1e6 }).target).toBe(1);
    expect(scaleDecision({ ...off, current: 3 })).toMatchObject({
      target: 1,
      reason: 'Enable Load Balancing is off: one instance',
    });
  });

  it('Max Instances below Min Instances: Min wins (never below min)', () => {
    expect(scaleDecision({ ...base, minInstances: 3, maxInstances: 2, current: 2 }).target).toBe(3);
  });
});
