import type { TestProject } from 'vitest/node';
import { type Cluster, findPgBin, startCluster } from './postgres-cluster.ts';
import { skipLoudly } from './skip-loudly.ts';

let cluster: Cluster | null = null;

declare module 'vitest' {
  export interface ProvidedContext {
    pgUrl: string | null;
  }
}

/** One PostgreSQL cluster for the whole server run; each test file makes its own database in it. */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  if (!findPgBin()) {
    const msg = 'PostgreSQL binaries missing (Debian package: postgresql): PostgreSQL API tests are SKIPPED';
    skipLoudly(msg);
    project.provide('pgUrl', null);
    return async () => undefined;
  }
  cluster = await startCluster();
  project.provide('pgUrl', cluster.url);
  return async () => {
    await cluster?.stop();
  };
}
