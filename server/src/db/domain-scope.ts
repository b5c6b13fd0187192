import { type RawBuilder, sql } from 'kysely';

/**
 * `and <column> in (…)` for a domain administrator's domains, nothing for an administrator (null).
 * Callers answer an empty scope themselves (an empty `in ()` is not SQL).
 */
export function andDomainIn(scope: readonly string[] | null, column: string): RawBuilder<unknown> {
  if (scope === null) return sql``;
  return sql`and ${sql.ref(column)} in (${sql.join(scope.length ? scope : [''])})`;
}
