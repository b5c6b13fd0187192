import type { Job } from '@mailroom/contract/jobs';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { notFound } from '../../http/errors.ts';
import { readJob, toJob } from './job.repository.ts';

type Db = Kysely<Database>;

export async function getJob(db: Db, id: number, actor: string | null = null): Promise<Job> {
  const row = await readJob(db, id);
  if (!row || (actor !== null && row.started_by !== actor)) throw notFound(`Job ${id} was not found.`);
  return toJob(row);
}
