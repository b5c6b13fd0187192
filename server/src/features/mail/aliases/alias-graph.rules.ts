import { splitDestinations } from '@mailroom/contract/mail';
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.ts';
import { aliasEdges, existing } from '../bulk/bulk-import.repository.ts';

/**
 * The alias graph (source → destinations) as far as it has been read, for loop checks. Edges
 * come from the database in batches and from rows not yet written (an import in progress).
 * Disabled aliases count: enabling one must never close a loop.
 *
 * Catch-alls: an address of a domain that is neither an alias source nor a mailbox goes where the
 * domain's catch-all (`@domain`) goes, as Postfix delivers it; so it leads to the node `@domain`.
 */
export class AliasGraph {
  /** null = known not to be an alias source. */
  private readonly edges = new Map<string, string[] | null>();

  constructor(private readonly db: Kysely<Database>) {}

  set(source: string, destinations: string[]): void {
    this.edges.set(source, destinations);
  }

  /** Reads the aliases reachable from `addresses` until every reachable source is known. */
  async preload(addresses: Iterable<string>): Promise<void> {
    let frontier = [...new Set(addresses)].filter((a) => !this.edges.has(a));
    while (frontier.length) {
      const found = await aliasEdges(this.db, frontier);
      const unknown = frontier.filter((a) => !found.has(a) && !a.startsWith('@'));
      const boxes = unknown.length
        ? await existing(this.db, 'mailboxes', 'email', unknown, Number.MAX_SAFE_INTEGER)
        : new Set<string>();
      const next = new Set<string>();
      for (const a of frontier) {
        const raw = found.get(a);
        const d =
          raw !== undefined
            ? splitDestinations(raw)
            : a.startsWith('@') || boxes.has(a)
              ? null
              : [a.slice(a.lastIndexOf('@'))];
        this.edges.set(a, d);
        for (const x of d ?? []) if (!this.edges.has(x)) next.add(x);
      }
      frontier = [...next];
    }
  }

  /** The common case, answered without waiting: every destination is known to lead nowhere. */
  leadsNowhere(source: string, destinations: string[]): boolean {
    for (const d of destinations) {
      if (d === source) return false;
      const next = this.edges.get(d);
      if (next === undefined) return false;
      if (next === null || next.length === 0) continue;
      // Falls to a catch-all that is not there (and is not the one being added): leads nowhere.
      const [only] = next;
      if (next.length === 1 && only!.startsWith('@') && only !== source && this.edges.get(only!) === null)
        continue;
      return false;
    }
    return true;
  }

  /**
   * The chain `source → … → source` that adding `source → destinations` would close, or null.
   * Breadth-first, so the reported chain is a shortest one.
   */
  async findLoop(source: string, destinations: string[]): Promise<string[] | null> {
    if (this.leadsNowhere(source, destinations)) return null;
    const parent = new Map<string, string>();
    let level: string[] = [];
    for (const d of destinations) {
      if (d === source) return [source, source];
      if (!parent.has(d)) {
        parent.set(d, source);
        level.push(d);
      }
    }
    while (level.length) {
      if (level.some((n) => !this.edges.has(n))) await this.preload(level);
      const next: string[] = [];
      for (const node of level) {
        for (const d of this.edges.get(node) ?? []) {
          if (d === source) {
            const chain = [source];
            for (let n: string | undefined = node; n !== undefined && n !== source; n = parent.get(n))
              chain.unshift(n);
            chain.unshift(source);
            return chain;
          }
          if (!parent.has(d)) {
            parent.set(d, node);
            next.push(d);
          }
        }
      }
      level = next;
    }
    return null;
  }
}
