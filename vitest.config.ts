import { defineConfig } from 'vitest/config';

// Four tiers. `unit` (contract, the server's tests beside the code, the web app's) needs no
// database and no daemon: `npm run test:unit` is the fast tier for daily work. `api` drives the
// whole API on SQLite and on a throwaway PostgreSQL cluster; `integration` starts the real
// daemons (Postfix, Dovecot, BIND, Apache…) and the deploy checks.
const server = {
  root: 'server',
  testTimeout: 30000,
  hookTimeout: 60000,
  pool: 'forks' as const,
};

export default defineConfig({
  test: {
    projects: [
      { test: { name: 'contract', root: 'contract', include: ['src/**/*.test.ts'] } },
      { test: { ...server, name: 'unit', include: ['src/**/*.test.ts'] } },
      {
        test: {
          ...server,
          name: 'api',
          include: ['test/api/**/*.test.ts'],
          globalSetup: ['test/global-setup.ts'],
        },
      },
      {
        test: {
          ...server,
          name: 'integration',
          include: ['test/integration/**/*.test.ts', 'test/deploy/**/*.test.ts'],
          globalSetup: ['test/global-setup.ts'],
        },
      },
      'web/vite.config.ts',
    ],
  },
});
