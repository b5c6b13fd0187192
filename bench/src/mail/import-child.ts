// Runs one alias import in its own process, so peak RSS is the import's own.
// Usage: node --import tsx import-child.ts <sqlite|postgres> <csv file> [postgres base url]
import { readFileSync } from 'node:fs';
import type { Dialect } from '../../../server/src/db/database.ts';
import { importAliases } from '../../../server/src/features/mail/aliases/alias-import.service.ts';
import { openBenchDb } from './bench-db.ts';

const [dialect, csvFile, pgBase] = process.argv.slice(2) as [Dialect, string, string | undefined];
const db = await openBenchDb(dialect, pgBase);
try {
  const baseRssKb = Math.round(process.memoryUsage().rss / 1024);
  const t0 = performance.now();
  const cpu0 = process.cpuUsage();
  const csv = readFileSync(csvFile, 'utf8');
  const outcome = await importAliases(db.handle.db, csv, false);
  const elapsedMs = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  const count = await db.handle.db
    .selectFrom('mail_aliases')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  process.stdout.write(
    JSON.stringify({
      imported: outcome.imported,
      errors: outcome.errors.length,
      inTable: Number(count.n),
      elapsedMs,
      cpuMs: (cpu.user + cpu.system) / 1000,
      baseRssKb,
      maxRssKb: process.resourceUsage().maxRSS,
    }) + '\n',
  );
} finally {
  await db.close();
}
