#!/usr/bin/env node
// `npm run build` (server half): compiles the server and the contract it imports to plain
// JavaScript in server/dist/ (main.js: the service; cli.js: the `mailroom` command), so production
// runs `node server/dist/main.js` with no TypeScript loader and no dev dependency.
//
// The TypeScript of server/src and contract/src is bundled (esbuild strips the types; `tsc -p`
// checks them); every other package stays an import resolved from node_modules at run time, and
// each of those must be a runtime dependency of the server (checked below), so that
// `npm install --omit=dev` (or `npm prune --omit=dev` after the build) is enough to run it.
//   node scripts/build-server.mjs [--outdir DIR]   (DIR must be inside the checkout, see below)
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

function parseArgs(argv) {
  let outdir = path.join(root, 'server', 'dist');
  for (let i = 0; i < argv.length; i++) {
    const [flag, inline] = argv[i].split('=', 2);
    if (flag === '--outdir') outdir = path.resolve(inline ?? argv[++i] ?? '');
    else {
      process.stderr.write(`build-server: unknown argument ${argv[i]} (use --outdir DIR)\n`);
      process.exit(2);
    }
  }
  // Packages are resolved from the output folder upwards, and config.ts finds web/dist two levels
  // up from it: keep the output two levels below the checkout (server/<dir>).
  if (path.dirname(path.dirname(outdir)) !== root) {
    process.stderr.write(`build-server: --outdir must be a folder two levels below ${root}\n`);
    process.exit(2);
  }
  return { outdir };
}

/** The package name of a bare import (`@scope/name/sub` → `@scope/name`). */
export function packageOf(specifier) {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
}

const builtins = new Set(builtinModules.flatMap((m) => [m, `node:${m}`]));

async function main() {
  const { outdir } = parseArgs(process.argv.slice(2));
  let esbuild;
  try {
    esbuild = await import('esbuild');
  } catch {
    process.stderr.write(
      'build-server: esbuild is missing: run `npm install` (with dev dependencies) before building.\n',
    );
    process.exit(1);
  }
  const serverPkg = JSON.parse(readFileSync(path.join(root, 'server', 'package.json'), 'utf8'));
  const runtimeDeps = new Set(Object.keys(serverPkg.dependencies ?? {}));
  const externals = new Set();

  /** Bundles only our own workspaces; leaves every package import to node_modules. */
  const keepPackagesExternal = {
    name: 'keep-packages-external',
    setup(build) {
      build.onResolve({ filter: /^[^./]/ }, (args) => {
        if (args.path.startsWith('@mailroom/')) return undefined;
        if (builtins.has(args.path)) return { path: args.path, external: true };
        externals.add(packageOf(args.path));
        return { path: args.path, external: true };
      });
    },
  };

  if (existsSync(outdir)) rmSync(outdir, { recursive: true, force: true });
  const started = Date.now();
  const result = await esbuild.build({
    absWorkingDir: root,
    entryPoints: { main: 'server/src/main.ts', cli: 'server/src/cli.ts' },
    outdir,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20.19',
    sourcemap: true,
    splitting: true,
    // Chunks beside the entries: config.ts finds web/dist relative to its own file.
    chunkNames: 'chunk-[hash]',
    logLevel: 'warning',
    metafile: true,
    plugins: [keepPackagesExternal],
  });
  // What each output imports (esbuild's own account), for the tests and for a look by hand.
  writeFileSync(path.join(outdir, 'meta.json'), JSON.stringify(result.metafile, null, 1) + '\n');

  // A package the bundle imports but the server does not declare as a runtime dependency would be
  // missing after `npm install --omit=dev`: refuse the build instead of failing at start.
  const undeclared = [...externals].filter((p) => !runtimeDeps.has(p)).sort();
  if (undeclared.length) {
    process.stderr.write(
      `build-server: the server imports ${undeclared.join(', ')} at run time but server/package.json ` +
        'does not list it under "dependencies".\n',
    );
    process.exit(1);
  }
  process.stdout.write(
    `build-server: ${path.relative(root, outdir)}/main.js and cli.js built in ${Date.now() - started} ms ` +
      `(runtime packages: ${[...externals].sort().join(', ')})\n`,
  );
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().catch((err) => {
    process.stderr.write(`build-server failed: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  });
}
