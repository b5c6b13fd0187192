#!/usr/bin/env node
// `npm test`: the whole suite, in order, failing fast. Plain Node with no dependencies.
//   node scripts/test.mjs [--only a,b] [--skip a,b] [--from step]
// Steps: format, lint, typecheck, unit, api, integration, build, e2e.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { missingPrerequisites } from './lib/prerequisites.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const bin = (name) => path.join(root, 'node_modules', '.bin', name);
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const requireAll = process.env.MAILROOM_REQUIRE_ALL === '1';

const STEPS = [
  { name: 'format', title: 'Formatting (prettier --check)', cmd: bin('prettier'), args: ['--check', '.'] },
  {
    name: 'lint',
    title: 'Lint (eslint, type-aware, no warnings allowed)',
    cmd: bin('eslint'),
    args: ['--max-warnings=0', '.'],
  },
  {
    name: 'typecheck',
    title: 'Type check (tsc, every workspace)',
    cmd: npm,
    args: ['run', '--silent', 'typecheck'],
  },
  {
    name: 'unit',
    title: 'Unit tests: contract, server beside the code, web (vitest, the fast tier)',
    cmd: bin('vitest'),
    args: ['run', '--project', 'contract', '--project', 'unit', '--project', 'web'],
  },
  {
    name: 'api',
    title: 'API tests on SQLite and PostgreSQL (vitest)',
    cmd: bin('vitest'),
    args: ['run', '--project', 'api'],
  },
  {
    name: 'integration',
    title: 'Integration tests: the real daemons and the deploy files (vitest)',
    cmd: bin('vitest'),
    args: ['run', '--project', 'integration'],
  },
  {
    name: 'build',
    title: 'Build (server to server/dist, web app with vite)',
    cmd: npm,
    args: ['run', 'build'],
  },
  {
    name: 'e2e',
    title: 'Browser tests (Playwright + /usr/bin/chromium)',
    cmd: bin('playwright'),
    args: ['test', '-c', 'e2e/playwright.config.ts'],
    needs: 'chromium',
  },
];

function parseArgs(argv) {
  const opts = { only: null, skip: [], from: null };
  for (let i = 0; i < argv.length; i++) {
    const [flag, inline] = argv[i].split('=', 2);
    const value = () => inline ?? argv[++i] ?? '';
    if (flag === '--only') opts.only = value().split(',');
    else if (flag === '--skip') opts.skip = value().split(',');
    else if (flag === '--from') opts.from = value();
    else {
      process.stderr.write(`Unknown argument ${argv[i]}. Use --only a,b  --skip a,b  --from step\n`);
      process.exit(2);
    }
  }
  const names = STEPS.map((s) => s.name);
  for (const n of [...(opts.only ?? []), ...opts.skip, ...(opts.from ? [opts.from] : [])]) {
    if (!names.includes(n)) {
      process.stderr.write(`Unknown step "${n}". Steps: ${names.join(', ')}\n`);
      process.exit(2);
    }
  }
  return opts;
}

const banner = (text) => {
  const line = '='.repeat(Math.max(72, text.length + 4));
  process.stdout.write(`\n${line}\n  ${text}\n${line}\n`);
};
const loud = (text) => process.stderr.write(`\n!!! ${text} !!!\n`);
const duration = (ms) => {
  const s = Math.round(ms / 1000);
  return s >= 60 ? `${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s` : `${s}s`;
};

let current = null;
let interrupted = null;
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    interrupted = signal;
    // The running step fails when its process ends; the summary still prints.
    if (current && current.exitCode === null && current.signalCode === null) current.kill(signal);
    else process.exit(130);
  });
}

function run(step) {
  return new Promise((resolve) => {
    current = spawn(step.cmd, step.args, { cwd: root, stdio: 'inherit', env: process.env });
    current.on('error', (err) => {
      process.stderr.write(`could not run ${step.cmd}: ${err.message}\n`);
      resolve(1);
    });
    current.on('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });
}

function checkPrerequisites() {
  banner('Before the tests: programs the suite drives');
  const missing = missingPrerequisites();
  if (!missing.length) {
    process.stdout.write('All Debian packages the tests use are present.\n');
    return { ok: true, missing };
  }
  for (const m of missing)
    loud(`MISSING: ${m.for} need the Debian package "${m.pkg}" (apt-get install ${m.pkg})`);
  if (requireAll) {
    loud('MAILROOM_REQUIRE_ALL=1: every program is required. Install them (.ci/run does) and run again.');
    return { ok: false, missing };
  }
  loud('Tests that need the missing programs will be SKIPPED. Set MAILROOM_REQUIRE_ALL=1 to fail instead.');
  return { ok: true, missing };
}

async function main() {
  const opts = parseArgs(process.argv.slice(2));
  const started = Date.now();
  const pre = checkPrerequisites();
  const results = [];
  const summary = (verdict) => {
    const parts = results.map(
      (r) => `${r.name} ${r.status}${r.ms !== undefined ? ` ${duration(r.ms)}` : ''}`,
    );
    process.stdout.write(
      `\nnpm test: ${verdict} in ${duration(Date.now() - started)} (${parts.join(', ') || 'no steps'})\n`,
    );
  };
  if (!pre.ok) {
    summary('FAILED before the first step (missing programs)');
    return 1;
  }

  const fromIndex = opts.from ? STEPS.findIndex((s) => s.name === opts.from) : 0;
  const chosen = STEPS.filter(
    (s, i) => i >= fromIndex && (!opts.only || opts.only.includes(s.name)) && !opts.skip.includes(s.name),
  );
  for (const [i, step] of chosen.entries()) {
    if (step.needs && pre.missing.some((m) => m.pkg === step.needs)) {
      loud(`SKIPPED step "${step.name}": the Debian package "${step.needs}" is not installed`);
      results.push({ name: step.name, status: 'SKIPPED' });
      continue;
    }
    banner(`[${i + 1}/${chosen.length}] ${step.title}`);
    const t0 = Date.now();
    const code = await run(step);
    const ms = Date.now() - t0;
    if (code !== 0 || interrupted) {
      results.push({ name: step.name, status: 'FAILED', ms });
      banner(`FAILED: ${step.title} (${interrupted ?? `exit ${code}`}, after ${duration(ms)})`);
      summary(`FAILED at step "${step.name}"`);
      return code || 130;
    }
    results.push({ name: step.name, status: 'ok', ms });
  }
  const skipped = results.some((r) => r.status === 'SKIPPED');
  summary(skipped ? 'PASSED WITH SKIPPED STEPS' : 'PASSED');
  return 0;
}

main().then(
  (code) => process.exit(code),
  (err) => {
    process.stderr.write(`npm test crashed: ${err instanceof Error ? err.stack : String(err)}\n`);
    process.exit(1);
  },
);
