import type { TestProject } from 'vitest/node';
import { type Cluster, findPgBin, startCluster } from './postgres-cluster.ts';

let cluster: Cluster | null = null;

declare module 'vitest' {
  export interface ProvidedContext {
    pgUrl: string | null;
  }
}

/** One PostgreSQL cluster for the whole server run; each test file makes its own database in it. */
export default async function setup(project: TestProject): Promise<() => void> {
  if (!findPgBin()) {
    const msg = 'PostgreSQL binaries missing (Debian package: postgresql): PostgreSQL API tests are SKIPPED';
    if (process.env.MAILROOM_REQUIRE_ALL === '1') throw new Error(msg + ' and MAILROOM_REQUIRE_ALL=1');
    process.stderr.write(`\n!!! ${msg} !!!\n\n`);
    project.provide('pgUrl', null);
    return () => undefined;
  }
  cluster = await startCluster();
  project.provide('pgUrl', cluster.url);
  return () => cluster?.stop();
}
