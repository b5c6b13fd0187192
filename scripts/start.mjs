#!/usr/bin/env node
// `npm start`: install dependencies if missing, build the web app if stale, then run the server
// (which migrates the database at start). Plain Node with no dependencies on purpose.
import { spawn, spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { installReason, webBuildReason } from './lib/freshness.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

function step(message) {
  process.stdout.write(`\n[mailroom] ${message}\n`);
}

function runOrExit(cmd, args) {
  const r = spawnSync(cmd, args, { cwd: root, stdio: 'inherit', env: process.env });
  if (r.error) {
    process.stderr.write(`[mailroom] could not run ${cmd}: ${r.error.message}\n`);
    process.exit(1);
  }
  if (r.status !== 0) {
    process.stderr.write(`[mailroom] \`${cmd} ${args.join(' ')}\` failed (exit ${r.status ?? r.signal})\n`);
    process.exit(r.status ?? 1);
  }
}

const needInstall = installReason(root);
if (needInstall) {
  // `npm install`, not `npm ci`: it installs exactly what package-lock.json pins, but `npm ci`
  // refuses this lock because it cannot list other platforms' optional native bindings of
  // unrs-resolver (used by the lint plugin) that the registry here does not serve.
  step(`${needInstall}: running npm install`);
  runOrExit(npm, ['install', '--no-audit', '--no-fund']);
}

const needBuild = webBuildReason(root);
if (needBuild) {
  step(`${needBuild}: building the web app`);
  runOrExit(npm, ['run', 'build', '-w', 'web']);
}

step('starting the server (migrations run at start)');
const server = spawn(process.execPath, ['--import', 'tsx', path.join('server', 'src', 'main.ts')], {
  cwd: root,
  stdio: 'inherit',
  env: process.env,
});

// Stop the server with us, and wait for it. `npm start` runs this script under `sh -c`: a SIGTERM to
// npm kills that shell, which does not pass the signal on, so this process only sees its parent
// vanish (it is re-parented). Both a signal and a lost parent stop the server, then we exit with it.
const serverRunning = () => server.exitCode === null && server.signalCode === null;
const stopServer = (signal) => {
  if (serverRunning()) server.kill(signal);
};
for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP']) process.on(signal, () => stopServer(signal));
const parent = process.ppid;
const parentWatch = setInterval(() => {
  if (process.ppid !== parent) {
    clearInterval(parentWatch);
    process.stderr.write('[mailroom] npm stopped; stopping the server\n');
    stopServer('SIGTERM');
  }
}, 500);

server.on('error', (err) => {
  process.stderr.write(`[mailroom] could not start the server: ${err.message}\n`);
  process.exit(1);
});
server.on('exit', (code, signal) => {
  clearInterval(parentWatch);
  process.exit(code ?? (signal ? 128 + ({ SIGINT: 2, SIGTERM: 15, SIGHUP: 1 }[signal] ?? 1) : 1));
});
