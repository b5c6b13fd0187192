import { type DnsSettings, type DnsSettingsState, dnsMessages } from '@mailroom/contract/dns';
import { conflict } from '../../../http/errors.ts';
import type { DnsContext } from '../dns.context.ts';
import { runDnsAction } from '../stack/dns-publish.service.ts';
import { loadSettings, storeSettings } from './dns-settings.service.ts';
import { primaryZoneNames } from '../zones/zone.repository.ts';

export async function getSettingsState(ctx: DnsContext): Promise<DnsSettingsState> {
  const { settings, version } = await loadSettings(ctx.deps.database.db);
  return { ...settings, version };
}

/** Saves the settings and renders named.conf from them; a stale version or a rejected file changes nothing. */
export async function saveSettings(
  ctx: DnsContext,
  body: DnsSettings & { version?: number | undefined },
): Promise<DnsSettingsState> {
  const { version: sent, ...settings } = body;
  return runDnsAction(ctx, async (trx) => {
    const current = await loadSettings(trx);
    if (sent !== undefined && sent !== current.version) {
      throw conflict(dnsMessages.staleSettings, { version: current.version });
    }
    const version = current.version + 1;
    await storeSettings(trx, settings, version);
    return { value: { ...settings, version }, plan: { confs: true } };
  });
}

/** Renders every zone and named.conf again; zone serials move only where the text changed. */
export async function applyAll(ctx: DnsContext): Promise<void> {
  await runDnsAction(ctx, async (trx) => {
    const zones = await primaryZoneNames(trx);
    return {
      value: undefined,
      plan: {
        confs: true,
        verifyFiles: true,
        zones: zones.map((domain) => ({ domain, bump: 'ifChanged' as const })),
      },
    };
  });
}

/**
 * Renders the zones of these mail domains (or of every mail domain) again after a mail change that
 * moved what they derive (MX, DKIM, SPF, DMARC). Only zones whose text changed get a new serial, a
 * check, a write and a reload; a domain without a zone here is skipped.
 */
export async function republishMailZones(ctx: DnsContext, only: string[] | 'all' = 'all'): Promise<void> {
  if (!ctx.mailFacts) return;
  const domains =
    only === 'all'
      ? (await ctx.mailFacts()).map((f) => f.domain.toLowerCase())
      : only.map((d) => d.toLowerCase());
  if (!domains.length) return;
  await runDnsAction(ctx, async (trx) => {
    const zones = await primaryZoneNames(trx, domains);
    return {
      value: undefined,
      plan: { zones: zones.map((domain) => ({ domain, bump: 'ifChanged' as const })) },
    };
  });
}
