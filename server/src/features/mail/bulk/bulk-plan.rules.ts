import { emailField, passwordField } from '@mailroom/contract/validators';
import { type Kysely } from 'kysely';
import { type Database } from '../../../db/schema.ts';
import { fieldError } from '../../../http/errors.ts';
import { type PlanInput } from '../../../lib/bulk-operation.ts';

export type Db = Kysely<Database>;

export const emailRule = emailField('Email');
export const passwordRule = passwordField('Password', 8);
export const PAGE = 1000;

export function header(records: string[][], wanted: string[]): Map<string, number> {
  const names = (records[0] ?? []).map((h) => h.trim().toLowerCase());
  const at = new Map<string, number>();
  for (const w of wanted) at.set(w, names.indexOf(w));
  return at;
}

export function csvOf(input: PlanInput): string {
  if (input.target.kind !== 'csv') throw fieldError('target', 'This operation takes a CSV file.');
  return input.target.csv;
}
