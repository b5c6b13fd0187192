// The CPU cost of each request of the mixed load, in process, on a database in the state the load
// leaves it (one domain with N aliases, N audit lines): which read or write is dear.
import type {} from '../../../server/src/http/route-config.d.ts';
import path from 'node:path';
import { buildApp } from '../../../server/src/app.ts';
import { loadConfig } from '../../../server/src/config.ts';
import type { Dialect } from '../../../server/src/db/database.ts';
import { addAdmin } from '../../../server/src/features/auth/admin.service.ts';
import { Host } from '../../../server/src/host/host.ts';
import { openBenchDb } from '../mail/bench-db.ts';

export async function routeCosts(
  dialect: Dialect,
  pgUrl: string | undefined,
  n: number,
  log: (m: string) => void,
) {
  const db = await openBenchDb(dialect, pgUrl);
  const config = loadConfig({
    MAILROOM_DATA_DIR: db.dataDir,
    MAILROOM_WEB_DIST: path.join(db.dataDir, 'no-web'),
    MAILROOM_RATE_LIMIT_IP: '100000000',
    MAILROOM_RATE_LIMIT_SESSION: '100000000',
  });
  await addAdmin(db.handle.db, 'bench@example.com', 'bench-password-1');
  const app = await buildApp({ config, database: db.handle, host: new Host(config.hostRoot, false) });
  const login = await app.inject({
    method: 'POST',
    url: '/auth/login',
    payload: { email: 'bench@example.com', password: 'bench-password-1' },
  });
  const headers = { authorization: `Bearer ${login.json<{ api_key: string }>().api_key}` };
  await app.inject({
    method: 'POST',
    url: '/api/mail/users/add',
    headers,
    payload: { createDomain: true, email: 'box@load.example.com', password: 'password-box-1' },
  });
  for (let i = 0; i < n; i++)
    await app.inject({
      method: 'POST',
      url: '/api/mail/aliases/add',
      headers,
      payload: { source: `l${i}-1@load.example.com`, destination: 'box@load.example.com' },
    });
  const READS = [
    '/api/mail/aliases?limit=25&sort=source',
    '/api/mail/users?limit=25',
    '/api/mail/domains',
    '/api/dns/zones',
    '/api/jobs?limit=10',
    '/api/mail/aliases?limit=25&q=load',
    '/api/audit?limit=10',
  ];
  const time = async (label: string, f: (i: number) => Promise<unknown>, reps = 200) => {
    for (let i = 0; i < 20; i++) await f(i);
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    for (let i = 0; i < reps; i++) await f(i);
    const wall = (performance.now() - t0) / reps;
    const c = process.cpuUsage(c0);
    log(`${label}: ${wall.toFixed(2)} ms wall, ${((c.user + c.system) / 1000 / reps).toFixed(2)} ms CPU`);
  };
  for (const url of READS) await time(`GET ${url}`, () => app.inject({ method: 'GET', url, headers }));
  let k = 0;
  await time('POST alias add', () =>
    app.inject({
      method: 'POST',
      url: '/api/mail/aliases/add',
      headers,
      payload: { source: `x${k++}@load.example.com`, destination: 'box@load.example.com' },
    }),
  );
  let r = 0;
  await time('POST alias remove', () =>
    app.inject({
      method: 'POST',
      url: `/api/mail/aliases/remove/${encodeURIComponent(`x${r++}@load.example.com`)}`,
      headers,
      payload: {},
    }),
  );
  let m = 0;
  await time(
    'POST mailbox add (argon2id on the hashing pool)',
    () =>
      app.inject({
        method: 'POST',
        url: '/api/mail/users/add',
        headers,
        payload: { email: `m${m++}@load.example.com`, password: 'password-box-1' },
      }),
    40,
  );
  await app.close();
  await db.close();
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await routeCosts(
    (process.argv[2] ?? 'sqlite') as Dialect,
    process.argv[3],
    Number(process.argv[4] ?? 5000),
    (m) => console.log(m),
  );
}
