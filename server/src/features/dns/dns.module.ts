import type { MailDnsFactsProvider } from '@mailroom/contract/mail-dns';
import type { FastifyInstance } from 'fastify';
import type { AppDeps, DnsChallenges } from '../../app-deps.ts';
import { readOutcome } from '../../apply/outcome.repository.ts';
import { registerRetry } from '../../apply/retry-registry.ts';
import { registerDaemonSpecs } from '../../host/daemon-specs.ts';
import type { BulkOperationHandler } from '../../lib/bulk-operation.ts';
import { bindLayout } from './stack/bind.layout.ts';
import { dnsChallenges } from './dns-challenge.service.ts';
import { primarySerials, raiseSerialsAbove } from './zones/zone-serial.repository.ts';
import type { DnsContext } from './dns.context.ts';
import { applyAll, republishMailZones } from './settings/dns-settings.actions.ts';
import { registerDnsRoutes } from './dns.routes.ts';
import { dnsBulkOperations } from './bulk/record-bulk-ops.service.ts';
import { dnsDaemonSpecs } from './stack/dns.daemons.ts';

/** Hands named to host/'s service control (local mode runs it). */
export function registerDnsDaemons(): void {
  registerDaemonSpecs('dns', (host, config) => dnsDaemonSpecs(host, config));
}

export interface DnsOptions {
  /** The mail area's facts, for the derived MX/SPF/DKIM/DMARC/autoconfig records. */
  mailFacts?: MailDnsFactsProvider;
  /** The SSL area's certificate count (dashboard). */
  sslCount?: () => Promise<number>;
  /** Addresses the rendered named.conf listens on; `any` by default. */
  listenOn?: string[];
}

export interface DnsHandle {
  /** Re-render these mail domains' zones (or all) after a mail change that moved their records. */
  republishMailZones(domains?: string[] | 'all'): Promise<void>;
  /** ACME DNS-01 through Mailroom's own zones (wired into AppDeps by app.ts). */
  challenges: DnsChallenges;
  /** Create and update DNS records for the bulk operations (issue 21). */
  bulkOperations: BulkOperationHandler[];
  /**
   * For a restore: reads the served serials before, and after the database is put back raises
   * every rewound zone's serial above them (the re-apply then serves it, and secondaries follow).
   */
  keepSerialsAcrossRestore(): Promise<() => Promise<string[]>>;
}

/**
 * The DNS area at start: its context (BIND layout, mail facts), Retry of a saved change that is
 * not live, its routes, and the handle the mail, SSL and bulk areas use.
 */
export function registerDns(app: FastifyInstance, deps: AppDeps, opts: DnsOptions = {}): DnsHandle {
  const ctx: DnsContext = {
    deps,
    layout: bindLayout(
      deps.host,
      // Local mode under Mailroom's supervisor: named on loopback at MAILROOM_DNS_PORT.
      deps.services?.mode === 'local'
        ? { listenOn: opts.listenOn ?? ['127.0.0.1'], port: deps.config.ports.dns }
        : opts.listenOn
          ? { listenOn: opts.listenOn }
          : {},
    ),
    mailFacts: opts.mailFacts,
    sslCount: opts.sslCount,
  };
  const db = deps.database.db;
  // Retry of a DNS change saved but not live: the same as Apply (every zone and named.conf).
  registerRetry(deps, 'dns', async () => {
    await applyAll(ctx);
    const outcome = await readOutcome(db, 'dns');
    if (!outcome) throw new Error('the DNS apply recorded no outcome');
    return outcome;
  });
  registerDnsRoutes(app, ctx);
  return {
    republishMailZones: (domains) => republishMailZones(ctx, domains),
    challenges: dnsChallenges(ctx),
    bulkOperations: dnsBulkOperations(ctx),
    async keepSerialsAcrossRestore() {
      const served = await primarySerials(db);
      return () => raiseSerialsAbove(db, served, new Date((deps.clock ?? Date.now)()));
    },
  };
}
