import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cloudflareProvider } from './cloudflare.provider.ts';

interface FakeRecord {
  id: string;
  zone: string;
  type: string;
  name: string;
  content: string;
  ttl: number;
}

/** A local stand-in of Cloudflare's v4 API: zones lookup, TXT create and delete, token checked. */
function fakeCloudflare(token: string) {
  const zones = [
    { id: 'z-example', name: 'example.com' },
    { id: 'z-sub', name: 'sub.example.com' },
  ];
  const records = new Map<string, FakeRecord>();
  const calls: string[] = [];
  let next = 1;
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (d: Buffer) => (body += d.toString()));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://x');
      calls.push(`${req.method} ${url.pathname}${url.search}`);
      const send = (status: number, data: object) =>
        res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(data));
      if (req.headers.authorization !== `Bearer ${token}`)
        return send(403, {
          success: false,
          errors: [{ code: 9109, message: 'Invalid access token' }],
          result: null,
        });
      let m: RegExpMatchArray | null;
      if (req.method === 'GET' && url.pathname === '/client/v4/zones')
        return send(200, {
          success: true,
          errors: [],
          result: zones.filter((z) => z.name === url.searchParams.get('name')),
        });
      if (req.method === 'POST' && (m = url.pathname.match(/^\/client\/v4\/zones\/([^/]+)\/dns_records$/))) {
        const zone = zones.find((z) => z.id === m?.[1]);
        if (!zone)
          return send(404, {
            success: false,
            errors: [{ code: 7003, message: 'Could not route' }],
            result: null,
          });
        const input = JSON.parse(body) as Omit<FakeRecord, 'id' | 'zone'>;
        if (input.type !== 'TXT' || !input.name.endsWith(zone.name))
          return send(400, {
            success: false,
            errors: [{ code: 9000, message: 'DNS name is invalid' }],
            result: null,
          });
        const rec = { ...input, id: `r${next++}`, zone: zone.id };
        records.set(rec.id, rec);
        return send(200, { success: true, errors: [], result: rec });
      }
      if (
        req.method === 'DELETE' &&
        (m = url.pathname.match(/^\/client\/v4\/zones\/([^/]+)\/dns_records\/([^/]+)$/))
      ) {
        const rec = records.get(m[2] ?? '');
        if (!rec || rec.zone !== m[1])
          return send(404, {
            success: false,
            errors: [{ code: 81044, message: 'Record does not exist.' }],
            result: null,
          });
        records.delete(rec.id);
        return send(200, { success: true, errors: [], result: { id: rec.id } });
      }
      return send(404, {
        success: false,
        errors: [{ code: 7000, message: 'No route for that URI' }],
        result: null,
      });
    });
  });
  return { server, records, calls };
}

describe('Cloudflare DNS provider against a local fake of its v4 API', () => {
  const fake = fakeCloudflare('good-token');
  let baseUrl = '';
  beforeAll(async () => {
    await new Promise<void>((r) => fake.server.listen(0, '127.0.0.1', r));
    baseUrl = `http://127.0.0.1:${(fake.server.address() as AddressInfo).port}/client/v4`;
  });
  afterAll(() => new Promise<void>((r) => fake.server.close(() => r())));

  it('creates the TXT record in the most specific zone and deletes it by id', async () => {
    const cf = cloudflareProvider({ apiKey: 'good-token' }, { baseUrl });
    const h = await cf.addTxt('_acme-challenge.www.sub.example.com', 'token-value');
    expect(h.zone).toBe('sub.example.com');
    expect([...fake.records.values()]).toEqual([
      expect.objectContaining({
        zone: 'z-sub',
        type: 'TXT',
        name: '_acme-challenge.www.sub.example.com',
        content: 'token-value',
      }),
    ]);
    await cf.removeTxt(h);
    expect(fake.records.size).toBe(0);
    expect(fake.calls.some((c) => c.startsWith('DELETE /client/v4/zones/z-sub/dns_records/'))).toBe(true);
  });

  it('falls back to the parent zone', async () => {
    const cf = cloudflareProvider({ apiKey: 'good-token' }, { baseUrl });
    const h = await cf.addTxt('_acme-challenge.example.com', 'v');
    expect(h.zone).toBe('example.com');
    await cf.removeTxt(h);
  });

  it("reports Cloudflare's own error text", async () => {
    const cf = cloudflareProvider({ apiKey: 'wrong' }, { baseUrl });
    await expect(cf.addTxt('_acme-challenge.example.com', 'v')).rejects.toThrow(
      /Invalid access token \(9109\)/,
    );
    const ok = cloudflareProvider({ apiKey: 'good-token' }, { baseUrl });
    await expect(ok.addTxt('_acme-challenge.other.org', 'v')).rejects.toThrow(
      /No Cloudflare zone .*other\.org/,
    );
    await expect(ok.removeTxt({ zone: 'example.com', ref: 'z-example/r999' })).rejects.toThrow(
      /Record does not exist/,
    );
  });

  it('needs a token', () => {
    expect(() => cloudflareProvider({}, { baseUrl })).toThrow(/API token/);
  });
});
