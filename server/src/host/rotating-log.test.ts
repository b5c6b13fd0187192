import { mkdtempSync, readFileSync, rmSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { AppProcess } from './app-process.ts';
import { acquireLog, APP_LOG_ROTATION, rotatedCopies, setAppLogRotation } from './rotating-log.ts';

const dirs: string[] = [];
const tmp = () => {
  const d = mkdtempSync(path.join(os.tmpdir(), 'mr-rotlog-'));
  dirs.push(d);
  return d;
};
afterEach(() => {
  setAppLogRotation(APP_LOG_ROTATION);
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

const linesOf = (f: string) =>
  readFileSync(f, 'utf8')
    .split('\n')
    .filter((l) => l);

describe('rotating app log', () => {
  it('rotates past the size, keeps `keep` copies, loses no line and keeps their order', async () => {
    setAppLogRotation({ maxBytes: 200, keep: 3 });
    const file = path.join(tmp(), 'logs', 'demo.log');
    const w = acquireLog(file);
    for (let i = 0; i < 40; i++) w.write(`line ${String(i).padStart(3, '0')} ${'x'.repeat(30)}\n`);
    await w.flushed();
    const copies = await rotatedCopies(file);
    expect(copies.map((c) => path.basename(c))).toEqual(['demo.log.1', 'demo.log.2', 'demo.log.3']);
    // Oldest copy first, then the current file: consecutive lines, the newest last.
    const all = [...copies.reverse(), file].flatMap(linesOf).map((l) => Number(l.slice(5, 8)));
    expect(all.at(-1)).toBe(39);
    for (let i = 1; i < all.length; i++) expect(all[i]).toBe(all[i - 1]! + 1);
    for (const f of [file, ...copies]) expect(readFileSync(f).length).toBeLessThanOrEqual(200);
    await w.release();
  });

  it('two writers of one file share it (one rotation, every line once)', async () => {
    setAppLogRotation({ maxBytes: 300, keep: 20 });
    const file = path.join(tmp(), 'demo.log');
    const a = acquireLog(file);
    const b = acquireLog(file);
    for (let i = 0; i < 30; i++) (i % 2 ? a : b).write(`w${i % 2} ${i} ${'y'.repeat(20)}\n`);
    await a.release();
    b.write('last\n');
    await b.release();
    const all = [...(await rotatedCopies(file)).reverse(), file].flatMap(linesOf);
    expect(all).toHaveLength(31);
    expect(all.at(-1)).toBe('last');
  });

  it('after Clear Logs empties the file, or someone deletes it, the writer follows (never writes to a lost file)', async () => {
    setAppLogRotation({ maxBytes: 1000, keep: 2 });
    const file = path.join(tmp(), 'demo.log');
    const w = acquireLog(file);
    w.write('before\n');
    await w.flushed();
    truncateSync(file, 0);
    w.write('after truncate\n');
    await w.flushed();
    expect(linesOf(file)).toEqual(['after truncate']);
    await w.release();
  });

  it('never follows a symbolic link put in place of the log', async () => {
    const dir = tmp();
    const target = path.join(dir, 'secret');
    writeFileSync(target, 'untouched\n');
    const file = path.join(dir, 'demo.log');
    symlinkSync(target, file);
    const w = acquireLog(file);
    w.write('evil\n');
    await w.flushed();
    await w.release();
    expect(readFileSync(target, 'utf8')).toBe('untouched\n');
  });

  it("an app process's output lands in its log as `<ISO> <name>[<pid>]: <text>`, across a rotation", async () => {
    setAppLogRotation({ maxBytes: 400, keep: 5 });
    const dir = tmp();
    const file = path.join(dir, 'demo.log');
    const proc = new AppProcess({
      argv: [
        process.execPath,
        '-e',
        'for (let i = 0; i < 20; i++) console.log("hello " + i); setInterval(() => {}, 1000)',
      ],
      cwd: dir,
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin' },
      runAs: null,
      logFile: file,
      logTag: 'demo',
    });
    await proc.start();
    const pid = proc.pid;
    await expect
      .poll(async () => [...(await rotatedCopies(file)), file].flatMap(linesOf).length, { timeout: 5000 })
      .toBeGreaterThanOrEqual(20);
    await proc.stop(1000);
    const all = [...(await rotatedCopies(file)).reverse(), file].flatMap(linesOf);
    expect(all[0]).toMatch(new RegExp(`^\\d{4}-\\d\\d-\\d\\dT[\\d:.]+Z demo\\[${pid}\\]: hello 0$`));
    expect(all.filter((l) => /hello \d+$/.test(l)).map((l) => Number(l.split(' ').pop()))).toEqual(
      Array.from({ length: 20 }, (_, i) => i),
    );
    expect((await rotatedCopies(file)).length).toBeGreaterThan(0);
  });
});
