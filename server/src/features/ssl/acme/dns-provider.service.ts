import { promises as dns } from 'node:dns';
import type { AcmeDnsProvider } from '@mailroom/contract/ssl-acme';
import type { AppDeps } from '../../../app-deps.ts';
import { cloudflareProvider } from './cloudflare.provider.ts';
import type { DnsTxtProvider } from './dns-txt-provider.types.ts';

/** The spec's providers plus Mailroom's own zones; those without an implementation say so. */
export const ACME_DNS_PROVIDERS: readonly AcmeDnsProvider[] = [
  {
    id: 'mailroom',
    name: "Mailroom's own DNS zones",
    available: true,
    reason: null,
    credentials: [],
  },
  {
    id: 'cloudflare',
    name: 'Cloudflare',
    available: true,
    reason: null,
    credentials: ['apiKey', 'apiSecret'],
  },
  ...(
    [
      ['route53', 'Amazon Route 53'],
      ['godaddy', 'GoDaddy'],
      ['namecheap', 'Namecheap'],
      ['digitalocean', 'DigitalOcean'],
    ] as const
  ).map(([id, name]) => ({
    id,
    name,
    available: false,
    reason: `${name} is not available in this build: use Mailroom's own DNS zones, Cloudflare or HTTP-01`,
    credentials: [],
  })),
];

/** The provider for an issuance, or an error that names why it cannot be used. */
export function dnsProviderFor(
  deps: AppDeps,
  id: string,
  credentials: Record<string, string> | undefined,
): DnsTxtProvider {
  const known = ACME_DNS_PROVIDERS.find((p) => p.id === id);
  if (!known) throw new Error(`Unknown DNS provider "${id}"`);
  if (!known.available) throw new Error(known.reason ?? `${known.name} is not available`);
  if (id === 'cloudflare') return cloudflareProvider(credentials ?? {});
  const own = deps.dnsChallenges;
  if (!own) throw new Error("Mailroom's DNS zones are not available to ACME in this process");
  return {
    async addTxt(fqdn, value) {
      const r = await own.addChallengeTxt(fqdn, value);
      return { zone: r.zone, ref: JSON.stringify(r) };
    },
    async removeTxt(handle) {
      await own.removeChallengeTxt(JSON.parse(handle.ref) as Parameters<typeof own.removeChallengeTxt>[0]);
    },
    waitServed: (fqdn, value, opts) => own.waitServed(fqdn, value, opts),
  };
}

/** Polls the zone's authoritative name servers until each serves `value` at `fqdn`. */
export async function waitAuthoritative(
  zone: string,
  fqdn: string,
  value: string,
  opts: { timeoutMs: number; signal: AbortSignal; pollMs?: number },
): Promise<void> {
  const deadline = Date.now() + opts.timeoutMs;
  let last = '';
  for (;;) {
    opts.signal.throwIfAborted();
    try {
      const names = await dns.resolveNs(zone);
      const addresses = (await Promise.all(names.map((n) => dns.resolve4(n).catch(() => [])))).flat();
      if (!addresses.length) throw new Error(`no address for the name servers of ${zone}`);
      const served = await Promise.all(
        addresses.map(async (a) => {
          const r = new dns.Resolver({ timeout: 2000, tries: 1 });
          r.setServers([a]);
          const txt = await r.resolveTxt(fqdn).catch(() => []);
          return txt.some((parts) => parts.join('') === value);
        }),
      );
      if (served.every(Boolean)) return;
      last = `${served.filter((s) => !s).length} of ${served.length} name servers do not serve it yet`;
    } catch (err) {
      last = (err as Error).message;
    }
    if (Date.now() > deadline) throw new Error(`The TXT record at ${fqdn} was not served in time (${last})`);
    await new Promise((r) => setTimeout(r, opts.pollMs ?? 5000));
  }
}
