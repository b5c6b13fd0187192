import { describe, expect, it } from 'vitest';
import { boundedRun } from './bounded-run.ts';
import { processAlive } from './process-signals.ts';

describe('boundedRun', () => {
  it('answers the exit code, the output and the input it was given', async () => {
    const r = await boundedRun('sh', ['-c', 'cat; echo oops >&2; exit 3'], { input: 'hello\n' });
    expect(r).toEqual({ code: 3, stdout: 'hello\n', stderr: 'oops\n' });
  });

  it('names the command when a failure wrote nothing, and answers 127 for a missing program', async () => {
    expect((await boundedRun('sh', ['-c', 'exit 2'])).stderr).toBe('Command failed: sh -c exit 2\n');
    const missing = await boundedRun('/no/such/program', []);
    expect(missing.code).toBe(127);
    expect(missing.stderr).toMatch(/ENOENT/);
  });

  it('answers when the program exits, though a helper it left keeps the output open', async () => {
    const started = Date.now();
    const r = await boundedRun('sh', ['-c', 'sleep 60 & echo $!; echo done']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('done');
    expect(Date.now() - started).toBeLessThan(20_000);
    process.kill(Number(r.stdout.split('\n')[0]), 'SIGKILL');
  });

  it('ends the whole process group on a timeout', async () => {
    const r = await boundedRun('sh', ['-c', 'sleep 60 & echo $!; wait'], { timeoutMs: 300 });
    expect(r.code).toBe(127);
    expect(r.stderr).toMatch(/timed out after 0 s/);
    const helper = Number(r.stdout.split('\n')[0]);
    expect(helper).toBeGreaterThan(0);
    await expect.poll(() => processAlive(helper), { timeout: 5000 }).toBe(false);
  });
});
