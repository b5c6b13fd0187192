import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { AppDeps } from '../../../server/src/app-deps.ts';
import { loadConfig } from '../../../server/src/config.ts';
import { type DatabaseHandle, openDatabase } from '../../../server/src/db/database.ts';
import { migrateToLatest } from '../../../server/src/db/migrate.ts';
import { bindLayout } from '../../../server/src/features/dns/stack/bind.layout.ts';
import type { DnsContext } from '../../../server/src/features/dns/dns.context.ts';
import { Host } from '../../../server/src/host/host.ts';

export interface DnsFixture {
  ctx: DnsContext;
  database: DatabaseHandle;
  dataDir: string;
  close(): Promise<void>;
}

/** A fresh SQLite database and host root in a temporary folder, with the DNS feature's context. */
export async function dnsFixture(): Promise<DnsFixture> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'mailroom-bench-dns-'));
  const config = loadConfig({ MAILROOM_DATA_DIR: dataDir });
  const database = openDatabase({ dataDir });
  await migrateToLatest(database.db);
  const host = new Host(config.hostRoot, false);
  const deps: AppDeps = { config, database, host };
  return {
    ctx: { deps, layout: bindLayout(host), mailFacts: undefined },
    database,
    dataDir,
    async close() {
      await database.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** `zones` zone rows inserted directly (the zone API is measured elsewhere). */
export async function insertZones(f: DnsFixture, names: string[]): Promise<void> {
  const now = new Date().toISOString();
  for (let i = 0; i < names.length; i += 500) {
    await f.database.db
      .insertInto('dns_zones')
      .values(
        names.slice(i, i + 500).map((domain) => ({
          domain,
          zone_type: 'primary',
          status: 'active',
          primary_ns: 'ns1.bench.example',
          admin_email: 'hostmaster@bench.example',
          serial: 1,
          refresh: 3600,
          retry: 1800,
          expire: 604800,
          minimum: 300,
          default_ttl: 3600,
          created_at: now,
          updated_at: now,
        })),
      )
      .execute();
  }
}

const TYPES = ['A', 'AAAA', 'MX', 'TXT', 'CNAME', 'SRV'] as const;

/** CSV rows (zone,name,type,value,ttl,priority) spread over the zones, a realistic type mix. */
export function recordsCsv(zones: string[], count: number, from = 0): string {
  const lines: string[] = ['zone,name,type,value,ttl,priority'];
  for (let n = from; n < from + count; n++) {
    const zone = zones[n % zones.length] as string;
    const i = Math.floor(n / zones.length);
    const t = TYPES[i % TYPES.length] as (typeof TYPES)[number];
    const ip = `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`;
    switch (t) {
      case 'A':
        lines.push(`${zone},host${i},A,${ip},3600,`);
        break;
      case 'AAAA':
        lines.push(`${zone},host${i},AAAA,2001:db8::${(n & 0xffff).toString(16)},3600,`);
        break;
      case 'MX':
        lines.push(`${zone},mx${i},MX,mail${i}.${zone},3600,10`);
        break;
      case 'TXT':
        lines.push(`${zone},txt${i},TXT,"v=spf1 ip4:${ip} -all",3600,`);
        break;
      case 'CNAME':
        lines.push(`${zone},alias${i},CNAME,host${i - 4}.${zone},3600,`);
        break;
      case 'SRV':
        lines.push(`${zone},_svc${i}._tcp,SRV,5 5060 sip${i}.${zone},3600,10`);
        break;
    }
  }
  return lines.join('\n') + '\n';
}
