import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { pendingCloseHooks } from '../src/http/close-watch.ts';
import type { DatabaseHandle } from '../src/db/database.ts';

/** What the database's sessions are doing (PostgreSQL): who waits, on what, in which statement. */
async function postgresActivity(url: string): Promise<string> {
  const name = new URL(url).pathname.slice(1);
  const admin = new pg.Client({ connectionString: url.replace(/\/[^/]+$/, '/postgres') });
  try {
    await admin.connect();
    const r = await admin.query<Record<string, unknown>>(
      `SELECT pid, datname, state, wait_event_type, wait_event,
              extract(epoch FROM now() - xact_start)::int AS xact_s, left(query, 160) AS query
         FROM pg_stat_activity WHERE datname IS NOT NULL ORDER BY datname = $1 DESC, xact_start`,
      [name],
    );
    return r.rows.map((row) => JSON.stringify(row)).join('\n');
  } catch (err) {
    return `(pg_stat_activity unreadable: ${String(err)})`;
  } finally {
    await admin.end().catch(() => undefined);
  }
}

/**
 * Closes a test's app and database, and when either takes longer than `afterMs` prints what it
 * waits for: the close hooks still running and, on PostgreSQL, every session's wait. The test
 * still fails on its own timeout; this makes that failure say why.
 */
export async function closeReporting(app: FastifyInstance, database: DatabaseHandle, afterMs = 20_000) {
  let step = 'app.close()';
  const stalled = setTimeout(() => {
    const hooks =
      step === 'app.close()' ? ` (close hooks running: ${pendingCloseHooks(app).join(' | ')})` : '';
    const report = (more: string) =>
      console.error(`[close stalled] ${step} still waits after ${afterMs / 1000} s${hooks}${more}`);
    if (database.dialect === 'postgres' && database.postgresUrl)
      void postgresActivity(database.postgresUrl).then((a) => report(`\nPostgreSQL sessions:\n${a}`));
    else report('');
  }, afterMs);
  try {
    await app.close();
    step = 'database.close()';
    await database.close();
  } finally {
    clearTimeout(stalled);
  }
}
