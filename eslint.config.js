import { readdirSync } from 'node:fs';
import path from 'node:path';
import js from '@eslint/js';
import importX, { createNodeResolver } from 'eslint-plugin-import-x';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

// Every folder under features/ is an area, on both sides: a new feature is in its zone from its
// first file.
const areasOf = (base) =>
  readdirSync(path.join(import.meta.dirname, base, 'features'), { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => d.name);

// A feature folder may not reach into another feature's internals; shared code lives in
// components/, lib/, api/ (web) or http/, host/, db/ (server). app/ may import features (router).
// What a server feature lets the others call (e.g. the mail feature's mailbox repository, the owner
// of `mailboxes`) is re-exported by its public entry `features/<area>/<area>.public.ts`.
const featureZones = (base) =>
  areasOf(base).map((area) => ({
    target: `${base}/features/${area}`,
    from: `${base}/features`,
    except: [`./${area}`, ...areasOf(base).map((other) => `./${other}/${other}.public.ts`)],
    message:
      "Features never import another feature's internals: use its <area>.public.ts, or move shared code to a shared folder.",
  }));

// ---- Issue 23 item 3: the host boundary and the floors (arch-b) ----------------------------
// The floors below the features (host/, http/, db/, lib/, apply/, security/) never import a
// feature: features register what the floors need (daemon specs, hooks) at start instead.
// PENDING_FLOOR_IMPORTS: known exceptions still to be moved, each named with its reason.
const PENDING_FLOOR_IMPORTS = {
  // Migration 0029 reads the histogram's bucket columns from the api-monitoring feature.
  db: ['./api-monitoring/latency-histogram.service.ts'],
};
const floorZones = (base) =>
  ['host', 'http', 'db', 'lib', 'apply', 'security'].map((floor) => ({
    target: `${base}/${floor}`,
    from: `${base}/features`,
    except: PENDING_FLOOR_IMPORTS[floor] ?? [],
    message: `${floor}/ is a floor below the features: it never imports one (features register with it instead).`,
  }));
// node:fs, node:child_process and process.kill are the host's: only host/ (and db/'s driver,
// tests and scripts) touch the machine, so every file and process effect has one place to audit.
const HOST_ONLY_MODULES = ['fs', 'fs/promises', 'child_process'].flatMap((m) => [m, `node:${m}`]);
const hostBoundary = {
  files: ['server/src/**/*.ts'],
  ignores: ['server/src/host/**', 'server/src/db/**', '**/*.test.ts'],
  rules: {
    'no-restricted-imports': [
      'error',
      {
        paths: HOST_ONLY_MODULES.map((name) => ({
          name,
          message: 'Files and processes go through a module in server/src/host/.',
        })),
      },
    ],
    'no-restricted-properties': [
      'error',
      {
        object: 'process',
        property: 'kill',
        message: 'Signals go through server/src/host/process-signals.ts.',
      },
    ],
  },
};
// ---- end of issue 23 item 3 (arch-b) ---------------------------------------------------------

// Kysely's query builders and raw SQL: only a `<entity>.repository.ts` (or db/) runs them.
const QUERY_BUILDERS = [
  'selectFrom',
  'insertInto',
  'replaceInto',
  'updateTable',
  'deleteFrom',
  'mergeInto',
  'with',
  'withRecursive',
];
const sqlSelectors = (message) => [
  { selector: `CallExpression[callee.property.name=/^(${QUERY_BUILDERS.join('|')})$/]`, message },
  { selector: "TaggedTemplateExpression[tag.name='sql']", message },
  { selector: "CallExpression[callee.object.name='sql']", message },
];
const REPOSITORY_MESSAGE =
  "SQL belongs to the table's owner: call (or add) a function of its <entity>.repository.ts.";

// Route files that still run SQL or touch the machine (issue 23 item 2, other branches).
const ROUTES_PENDING = []; // none left: every *.routes.ts is HTTP only

export default tseslint.config(
  {
    ignores: [
      '**/node_modules/**',
      '**/dist/**',
      'data/**',
      'e2e/test-output/**',
      'test-results/**',
      'playwright-report/**',
      '**/*.cjs',
      'scripts/**',
      'server/bin/**',
      'bench/out/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: {
        projectService: { allowDefaultProject: ['vitest.config.ts'] },
        tsconfigRootDir: import.meta.dirname,
      },
      globals: { ...globals.node },
    },
    plugins: { 'import-x': importX },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/switch-exhaustiveness-check': 'error',
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { attributes: false } }],
      '@typescript-eslint/require-await': 'off',
      'import-x/no-cycle': ['error', { maxDepth: 10 }],
      'import-x/no-restricted-paths': [
        'error',
        {
          zones: [
            ...featureZones('./server/src'),
            ...floorZones('./server/src'), // issue 23 item 3 (arch-b)
            ...featureZones('./web/src'),
            {
              target: './web/src/components',
              from: './web/src/features',
              message: 'components/ are shared.',
            },
            { target: './web/src/lib', from: './web/src/features', message: 'lib/ is shared.' },
            { target: './web/src/api', from: './web/src/features', message: 'api/ is shared.' },
            {
              target: './web/src/features',
              from: './web/src/app',
              message: 'features never import the shell.',
            },
            { target: './contract', from: './server', message: 'the contract stands alone.' },
            { target: './contract', from: './web', message: 'the contract stands alone.' },
            { target: './web', from: './server', message: 'web and server meet only in contract/.' },
            { target: './server', from: './web', message: 'web and server meet only in contract/.' },
          ],
        },
      ],
    },
    settings: {
      'import-x/resolver-next': [createNodeResolver({ extensions: ['.ts', '.tsx', '.js', '.mjs'] })],
    },
  },
  hostBoundary, // issue 23 item 3 (arch-b)
  {
    files: ['web/src/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'warn',
    },
  },
  {
    files: ['**/*.test.ts', '**/*.test.tsx', 'e2e/**', 'bench/**', 'server/test/**'],
    rules: {
      '@typescript-eslint/no-non-null-assertion': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
    },
  },
  {
    files: ['server/src/**/*.ts'],
    ignores: ['server/src/**/*.repository.ts', 'server/src/db/**', 'server/src/**/*.test.ts'],
    rules: { 'no-restricted-syntax': ['error', ...sqlSelectors(REPOSITORY_MESSAGE)] },
  },
  {
    // Routes are HTTP only: request -> service -> answer.
    files: ['server/src/**/*.routes.ts'],
    ignores: ROUTES_PENDING,
    rules: {
      'no-restricted-syntax': [
        'error',
        ...sqlSelectors('Routes are HTTP only: SQL goes in a repository, called by a service.'),
      ],
      'no-restricted-imports': [
        'error',
        {
          paths: [
            'node:fs',
            'node:fs/promises',
            'fs',
            'fs/promises',
            'node:child_process',
            'child_process',
          ].map((name) => ({
            name,
            message: 'Routes are HTTP only: the machine is reached through host/, called by a service.',
          })),
        },
      ],
    },
  },
  {
    files: ['eslint.config.js'],
    ...tseslint.configs.disableTypeChecked,
  },
);
