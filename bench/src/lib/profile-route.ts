// A CPU profile of the real server (one worker, production build) under load of one route:
// `npx tsx bench/src/lib/profile-route.ts <path> [seconds] [outDir]` writes a .cpuprofile per
// process and prints the heaviest functions by self time.
import { readdirSync, readFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { measureLoad } from './http-load.ts';
import { signInKey, startMailroom } from './servers.ts';

const route = process.argv[2] ?? '/api/audit?limit=1';
const seconds = Number(process.argv[3] ?? 10);
const dir = path.resolve(process.argv[4] ?? `bench/out/profile-${Date.now()}`);
mkdirSync(dir, { recursive: true });
const server = await startMailroom(dir, { MAILROOM_WORKERS: '1' }, ['--cpu-prof', `--cpu-prof-dir=${dir}`]);
// The load window, as offsets back from the process's end (the profile's last sample).
let window = { from: 0, to: 0 };
try {
  const key = await signInKey(server.baseURL);
  // Past the startup's own work (first renders, module loading).
  await new Promise((r) => setTimeout(r, 8000));
  const t0 = performance.now();
  const r = await measureLoad({
    url: server.baseURL + route,
    headers: { authorization: `Bearer ${key}` },
    seconds,
    warmupSeconds: 2,
  });
  const t1 = performance.now();
  process.stdout.write(`${route}: ${Math.round(r.rps)} req/s, p99 ${r.p99ms} ms\n`);
  await server.stop();
  const t2 = performance.now();
  window = { from: (t2 - t0) * 1000, to: (t2 - t1) * 1000 };
} catch (err) {
  await server.stop();
  throw err;
}
interface Node {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
for (const f of readdirSync(dir).filter((n) => n.endsWith('.cpuprofile'))) {
  const p = JSON.parse(readFileSync(path.join(dir, f), 'utf8')) as {
    nodes: Node[];
    samples: number[];
    timeDeltas: number[];
    endTime: number;
    startTime: number;
  };
  const self = new Map<number, number>();
  let t = p.startTime;
  let total = 0;
  p.samples.forEach((s, i) => {
    t += p.timeDeltas[i] ?? 0;
    const back = p.endTime - t;
    if (back > window.from || back < window.to) return;
    total++;
    self.set(s, (self.get(s) ?? 0) + 1);
  });
  const byFn = new Map<string, number>();
  for (const n of p.nodes) {
    const k = `${n.callFrame.functionName || '(anon)'} ${n.callFrame.url.replace(/^.*node_modules\//, '').replace(/^.*get-ratio\//, '')}:${n.callFrame.lineNumber + 1}`;
    byFn.set(k, (byFn.get(k) ?? 0) + (self.get(n.id) ?? 0));
  }
  process.stdout.write(`\n${f}: ${total} samples\n`);
  for (const [k, v] of [...byFn].sort((a, b) => b[1] - a[1]).slice(0, 45))
    process.stdout.write(`${((100 * v) / total).toFixed(1).padStart(5)}%  ${k}\n`);
  // Inclusive time of the server's own functions (each sample counted once per function on its stack).
  const byId = new Map(p.nodes.map((x) => [x.id, x]));
  const parent = new Map<number, number>();
  for (const x of p.nodes) for (const c of x.children ?? []) parent.set(c, x.id);
  const name = (x: Node) =>
    `${x.callFrame.functionName || '(anon)'} ${x.callFrame.url.replace(/^.*node_modules\//, '').replace(/^.*get-ratio\//, '')}:${x.callFrame.lineNumber + 1}`;
  const incl = new Map<string, number>();
  for (const [id, cnt] of self) {
    const seen = new Set<string>();
    for (let cur: number | undefined = id; cur !== undefined; cur = parent.get(cur)) {
      const k = name(byId.get(cur)!);
      if (seen.has(k)) continue;
      seen.add(k);
      incl.set(k, (incl.get(k) ?? 0) + cnt);
    }
  }
  process.stdout.write('inclusive:\n');
  for (const [k, v] of [...incl].sort((a, b) => b[1] - a[1]).slice(0, 70))
    process.stdout.write(`${((100 * v) / total).toFixed(1).padStart(5)}%  ${k}\n`);
}
