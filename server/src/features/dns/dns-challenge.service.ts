import { promises as dns } from 'node:dns';
import type { DnsChallenges } from '../../app-deps.ts';
import type { DnsContext } from './dns.context.ts';
import { loadSettings } from './settings/dns-settings.service.ts';
import { addRecord, deleteRecord } from './records/record.service.ts';
import { primaryZoneNames } from './zones/zone.repository.ts';

const CHALLENGE_TTL = 60;
const POLL_MS = 250;

const clean = (name: string) => name.trim().toLowerCase().replace(/\.$/, '');

export function dnsChallenges(ctx: DnsContext): DnsChallenges {
  const db = ctx.deps.database.db;

  async function zoneFor(fqdn: string): Promise<string | null> {
    const labels = clean(fqdn).split('.');
    const candidates = labels.map((_, i) => labels.slice(i).join('.'));
    const found = new Set(await primaryZoneNames(db, candidates));
    return candidates.find((c) => found.has(c)) ?? null;
  }

  /** Where named answers: the supervisor's port in local mode, else the settings' Server Port. */
  async function servedPort(): Promise<number> {
    if (ctx.layout.port) return ctx.layout.port;
    return (await loadSettings(db)).settings.serverPort;
  }

  return {
    zoneFor,
    async addChallengeTxt(fqdn, value) {
      const name = clean(fqdn);
      const zone = await zoneFor(name);
      if (!zone) throw new Error(`No DNS zone of Mailroom holds ${name}`);
      const qname = name === zone ? '' : name.slice(0, -(zone.length + 1));
      const { settings } = await loadSettings(db);
      const ttl = Math.min(settings.maxTtl, Math.max(settings.minTtl, CHALLENGE_TTL));
      const rec = await addRecord(ctx, zone, { qname: qname || '@', rtype: 'TXT', value, ttl });
      return { zone, qname, value, id: rec.id };
    },
    async removeChallengeTxt(record) {
      await deleteRecord(ctx, record.zone, record.qname || '@', 'TXT', { id: record.id });
    },
    async waitServed(fqdn, value, { timeoutMs, signal }) {
      const resolver = new dns.Resolver({ timeout: 1000, tries: 1 });
      const port = await servedPort();
      resolver.setServers([`127.0.0.1:${port}`]);
      const deadline = Date.now() + timeoutMs;
      let last = '';
      for (;;) {
        signal?.throwIfAborted();
        try {
          const txt = await resolver.resolveTxt(clean(fqdn));
          if (txt.some((parts) => parts.join('') === value)) return;
          last = `served ${txt.length} other TXT value${txt.length === 1 ? '' : 's'}`;
        } catch (err) {
          last = (err as NodeJS.ErrnoException).code ?? String(err);
        }
        if (Date.now() > deadline)
          throw new Error(
            `The name server on port ${port} did not serve the TXT record at ${clean(fqdn)} (${last}): ` +
              'is named running, and does Mailroom reload it?',
          );
        await new Promise((r) => setTimeout(r, POLL_MS));
      }
    },
  };
}
