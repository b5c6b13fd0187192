import { existsSync } from 'node:fs';
import path from 'node:path';
import { CHROMIUM, ROOT } from './paths.ts';

/** Fails early with the fix, instead of every test timing out. */
export default function globalSetup(): void {
  if (!existsSync(CHROMIUM)) {
    throw new Error(`${CHROMIUM} is missing: install the Debian package "chromium" (.ci/run does).`);
  }
  if (!existsSync(path.join(ROOT, 'web/dist/index.html'))) {
    throw new Error(
      'web/dist is missing: run `npm run build -w web` first (`npm test` does it before Playwright).',
    );
  }
}
