#!/usr/bin/env node
// The `mailroom` command: runs server/src/cli.ts under tsx's loader and passes on its exit code.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const cli = fileURLToPath(new URL('../src/cli.ts', import.meta.url));
const child = spawn(
  process.execPath,
  ['--import', import.meta.resolve('tsx'), cli, ...process.argv.slice(2)],
  {
    stdio: 'inherit',
  },
);
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  process.on(signal, () => child.kill(signal));
}
child.on('error', (err) => {
  process.stderr.write(`mailroom: cannot start the CLI: ${err.message}\n`);
  process.exit(1);
});
child.on('exit', (code, signal) => {
  process.exitCode = code ?? (signal ? 128 : 1);
});
