import type { DnsTxtProvider } from './dns-txt-provider.types.ts';

export const CLOUDFLARE_API = 'https://api.cloudflare.com/client/v4';

interface CfAnswer<T> {
  success: boolean;
  errors?: { code?: number; message?: string }[];
  result: T;
}

/**
 * Cloudflare's public v4 API: the zone holding the name (longest match among the account's zones),
 * then a TXT record created and later deleted by its id. Credentials: `apiKey` alone is an API token
 * (Bearer, needs Zone:Read and DNS:Edit); `apiKey` + `apiSecret` are the account email and the
 * Global API Key.
 */
export function cloudflareProvider(
  credentials: Record<string, string>,
  opts: { baseUrl?: string; fetch?: typeof fetch } = {},
): DnsTxtProvider {
  const base = (opts.baseUrl ?? CLOUDFLARE_API).replace(/\/$/, '');
  const doFetch = opts.fetch ?? fetch;
  const apiKey = credentials.apiKey?.trim() ?? '';
  const apiSecret = credentials.apiSecret?.trim() ?? '';
  if (!apiKey) throw new Error('Cloudflare needs an API token (apiKey)');
  const auth: Record<string, string> = apiSecret
    ? { 'X-Auth-Email': apiKey, 'X-Auth-Key': apiSecret }
    : { Authorization: `Bearer ${apiKey}` };

  async function call<T>(method: string, path: string, body?: unknown): Promise<T> {
    const res = await doFetch(`${base}${path}`, {
      method,
      headers: { ...auth, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    let data: CfAnswer<T> | undefined;
    try {
      data = (await res.json()) as CfAnswer<T>;
    } catch {
      data = undefined;
    }
    if (!res.ok || !data?.success) {
      const why = data?.errors?.map((e) => `${e.message ?? ''}${e.code ? ` (${e.code})` : ''}`).join('; ');
      throw new Error(`Cloudflare refused ${method} ${path}: ${why || `HTTP ${res.status}`}`);
    }
    return data.result;
  }

  async function zoneOf(fqdn: string): Promise<{ id: string; name: string }> {
    const labels = fqdn.split('.');
    // The most specific name first: a delegated sub-zone wins over its parent.
    for (let i = 0; i < labels.length - 1; i++) {
      const name = labels.slice(i).join('.');
      const zones = await call<{ id: string; name: string }[]>(
        'GET',
        `/zones?name=${encodeURIComponent(name)}&status=active`,
      );
      const z = zones.find((x) => x.name.toLowerCase() === name);
      if (z) return z;
    }
    throw new Error(`No Cloudflare zone of this account holds ${fqdn}`);
  }

  return {
    async addTxt(fqdn, value) {
      const zone = await zoneOf(fqdn);
      const rec = await call<{ id: string }>('POST', `/zones/${zone.id}/dns_records`, {
        type: 'TXT',
        name: fqdn,
        content: value,
        ttl: 120,
      });
      return { zone: zone.name, ref: `${zone.id}/${rec.id}` };
    },
    async removeTxt(handle) {
      const [zoneId, recordId] = handle.ref.split('/');
      await call('DELETE', `/zones/${zoneId}/dns_records/${recordId}`);
    },
  };
}
