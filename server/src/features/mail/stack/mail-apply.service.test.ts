import type { LiveSaveStep } from '@mailroom/contract/mail';
import { describe, expect, it } from 'vitest';
import { SAVE_STEP, SaveSteps } from './mail-apply.service.ts';

const brief = (steps: LiveSaveStep[]) => steps.map((s) => `${s.name}:${s.state}`);

describe('SaveSteps (issue 22 #17)', () => {
  it('tells each change: planned steps pending, started ones before them in start order, then their end', () => {
    const seen: string[][] = [];
    const steps = new SaveSteps([SAVE_STEP.prepare, SAVE_STEP.save, SAVE_STEP.live], (s) =>
      seen.push(brief(s)),
    );
    expect(brief(steps.live())).toEqual([
      'Prepare the mail host:pending',
      'Save the settings:pending',
      'Put the files live:pending',
    ]);
    steps.start(SAVE_STEP.prepare);
    steps.end(SAVE_STEP.prepare, 'passed');
    steps.check({ name: 'postconf', state: 'running' });
    steps.check({ name: 'doveconf', state: 'running' });
    // doveconf ends first: it keeps its place (start order), it does not jump ahead.
    steps.check({ name: 'doveconf', state: 'skipped', detail: 'Dovecot: files unchanged' });
    expect(seen.at(-1)).toEqual([
      'Prepare the mail host:passed',
      'postconf:running',
      'doveconf:skipped',
      'Save the settings:pending',
      'Put the files live:pending',
    ]);
    steps.check({ name: 'postconf', state: 'passed' });
    steps.start(SAVE_STEP.save);
    expect(steps.running(SAVE_STEP.save)).toBe(true);
    steps.end(SAVE_STEP.save, 'passed');
    steps.start(SAVE_STEP.live);
    steps.end(SAVE_STEP.live, 'passed', '2 files changed.');
    steps.start(SAVE_STEP.reload('postfix'));
    steps.end(SAVE_STEP.reload('postfix'), 'passed');
    expect(seen).toHaveLength(12);
    expect(brief(steps.steps)).toEqual([
      'Prepare the mail host:passed',
      'postconf:passed',
      'doveconf:skipped',
      'Save the settings:passed',
      'Put the files live:passed',
      'Reload postfix:passed',
    ]);
    // A step that ran has its time; the live view of a running step has none.
    for (const s of steps.steps) expect(typeof s.ms).toBe('number');
    expect(seen.some((v) => v.includes('Reload postfix:running'))).toBe(true);
  });

  it('a refused check: the steps not reached are not-run (never passed), and a pending step never reached is left out', () => {
    const steps = new SaveSteps([SAVE_STEP.prepare, SAVE_STEP.save, SAVE_STEP.live, SAVE_STEP.dns]);
    steps.start(SAVE_STEP.prepare);
    steps.end(SAVE_STEP.prepare, 'skipped');
    steps.check({ name: 'postconf', state: 'running' });
    steps.check({ name: 'postconf', state: 'failed', detail: 'postconf: fatal' });
    steps.notRun([SAVE_STEP.save, SAVE_STEP.live]);
    expect(steps.steps.map((s) => [s.name, s.state, s.ms === null])).toEqual([
      ['Prepare the mail host', 'skipped', false],
      ['postconf', 'failed', false],
      ['Save the settings', 'not-run', true],
      ['Put the files live', 'not-run', true],
    ]);
    expect(brief(steps.live()).at(-1)).toBe('Publish the DNS records:pending');
  });

  it('a step that ends without a start has no time', () => {
    const steps = new SaveSteps();
    steps.end('Reload dovecot', 'failed', 'not running');
    expect(steps.steps).toEqual([
      { name: 'Reload dovecot', state: 'failed', detail: 'not running', ms: null },
    ]);
  });
});
