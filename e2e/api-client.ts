import { type APIRequestContext, type APIResponse, expect } from '@playwright/test';
import type { Credentials } from './fixtures.ts';

/**
 * A small client of the real API, used to arrange data and to check what the screens did; every
 * call must succeed (the failure names the URL, the status and the answer).
 */
export function apiClient(request: APIRequestContext, key: string) {
  const headers = { Authorization: `Bearer ${key}` };
  const ok = async <T>(res: APIResponse): Promise<T> => {
    expect(res.ok(), `${res.url()} answered ${res.status()}: ${await res.text()}`).toBe(true);
    return (await res.json()) as T;
  };
  // A new mail domain makes its DKIM key (2048-bit RSA) before answering: slow on a loaded machine.
  const timeout = 120_000;
  return {
    headers,
    ok,
    get: async <T>(path: string) => ok<T>(await request.get(`/api/${path}`, { headers })),
    /** The status of a GET, whatever it is. */
    status: async (path: string) => (await request.get(`/api/${path}`, { headers })).status(),
    post: async <T>(path: string, data?: unknown) =>
      ok<T>(await request.post(`/api/${path}`, { headers, data: data ?? {}, timeout })),
    postCsv: async <T>(path: string, csv: string) =>
      ok<T>(
        await request.post(`/api/${path}`, {
          headers: { ...headers, 'Content-Type': 'text/csv' },
          data: csv,
          timeout,
        }),
      ),
    /** The X-Total-Count of a list. */
    total: async (path: string) => {
      const res = await request.get(`/api/${path}`, { headers });
      expect(res.ok()).toBe(true);
      return Number(res.headers()['x-total-count']);
    },
    /** A primary zone whose name server lies outside it, so it needs no address record. */
    addZone: async <T = unknown>(domain: string) =>
      ok<T>(
        await request.post('/api/dns/zones/add', {
          headers,
          data: {
            domain,
            zoneType: 'primary',
            primaryNs: 'ns1.mailroom-e2e.net',
            adminEmail: `admin@${domain}`,
            serial: 1,
            refresh: 3600,
            retry: 1800,
            expire: 604800,
          },
        }),
      ),
    /** A mailbox user (its domain made with it when new), who signs in to /account. */
    addMailbox: async (who: Credentials, quota = 1024 * 1024) =>
      ok<unknown>(
        await request.post('/api/mail/users/add', {
          headers,
          data: { createDomain: true, email: who.email, password: who.password, quota },
          timeout,
        }),
      ),
    /** A console account (POST /api/accounts: an administrator unless `role` says otherwise). */
    addAccount: async (account: Credentials & Record<string, unknown>) =>
      ok<unknown>(await request.post('/api/accounts', { headers, data: account })),
  };
}

export type ApiClient = ReturnType<typeof apiClient>;
