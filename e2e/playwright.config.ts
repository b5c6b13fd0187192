import path from 'node:path';
import { defineConfig } from '@playwright/test';
import { CHROMIUM, OUTPUT_DIR } from './paths.ts';

export default defineConfig({
  testDir: import.meta.dirname,
  testMatch: '**/*.spec.ts',
  outputDir: path.join(OUTPUT_DIR, 'results'),
  globalSetup: path.join(import.meta.dirname, 'global-setup.ts'),
  // Each worker starts its own server and browser; the CI machine has two cores.
  workers: 2,
  fullyParallel: false,
  // In CI a failed test runs once more, on a fresh worker and server: under CI's load a few of the
  // 136 tests miss a timing now and then (a different one each run), and the report names every
  // test that passed only on its second run ("flaky"). Locally a failure is a failure.
  retries: process.env.CI ? 1 : 0,
  forbidOnly: true,
  reporter: 'list',
  timeout: 60_000,
  expect: { timeout: 10_000 },
  use: {
    browserName: 'chromium',
    headless: true,
    viewport: { width: 1280, height: 800 },
    actionTimeout: 15_000,
    navigationTimeout: 30_000,
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: CHROMIUM,
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
  },
});
