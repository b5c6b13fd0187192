import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountFor } from '../../src/features/ssl/acme/acme-account.service.ts';
import { dialects, startTestApp, type TestContext } from '../harness.ts';
import { zoneForm } from '../dns-zone-form.ts';

// What ACME keeps and changes in Mailroom's own state, on each database: the accounts per
// directory and the DNS-01 challenge records in Mailroom's zones (no CA involved here).
describe.each(dialects())('ACME state on %s', (dialect) => {
  let t: TestContext;
  const zoneFile = (d: string) => readFileSync(t.deps.host.path(`/etc/bind/mailroom/zones/db.${d}`), 'utf8');

  beforeAll(async () => {
    t = await startTestApp(dialect);
    for (const domain of ['example.com', 'sub.example.com']) {
      const res = await t.call({
        method: 'POST',
        url: '/api/dns/zones/add',
        payload: zoneForm(domain),
      });
      expect(res.statusCode, res.body).toBe(200);
    }
  });
  afterAll(async () => {
    await t?.close();
  });

  it('keeps one account per directory URL, its key encrypted, even when asked twice at once', async () => {
    const url = 'https://ca.example/directory';
    const [a, b] = await Promise.all([
      accountFor(t.deps, url, 'one@example.com'),
      accountFor(t.deps, url, 'one@example.com'),
    ]);
    expect(a.accountKey.toString()).toBe(b.accountKey.toString());
    expect(a.accountKey.toString()).toMatch(/BEGIN (EC )?PRIVATE KEY/);
    const other = await accountFor(t.deps, 'https://other-ca.example/dir', 'one@example.com');
    expect(other.accountKey.toString()).not.toBe(a.accountKey.toString());
    const rows = await t.deps.database.db.selectFrom('acme_accounts').selectAll().orderBy('id').execute();
    expect(rows.map((r) => r.directory_url)).toEqual([url, 'https://other-ca.example/dir']);
    for (const r of rows) expect(r.account_key).not.toContain('PRIVATE KEY');
    expect((await accountFor(t.deps, url, 'one@example.com')).accountKey.toString()).toBe(
      a.accountKey.toString(),
    );
  });

  it('adds the challenge TXT record to the most specific zone through the DNS pipeline, then removes it', async () => {
    const dns = t.deps.dnsChallenges;
    if (!dns) throw new Error('buildApp did not wire the DNS challenges');
    expect(await dns.zoneFor('_acme-challenge.www.sub.example.com')).toBe('sub.example.com');
    expect(await dns.zoneFor('_acme-challenge.example.com')).toBe('example.com');
    expect(await dns.zoneFor('_acme-challenge.example.org')).toBeNull();
    const serialBefore = /(\d+)\s*;\s*serial/i.exec(zoneFile('sub.example.com'))?.[1];

    const rec = await dns.addChallengeTxt('_acme-challenge.www.sub.example.com.', 'abc-DEF_123');
    expect(rec).toMatchObject({
      zone: 'sub.example.com',
      qname: '_acme-challenge.www',
      value: 'abc-DEF_123',
    });
    expect(zoneFile('sub.example.com')).toMatch(/_acme-challenge\.www\s+\d+\s+IN\s+TXT\s+"abc-DEF_123"/);
    expect(zoneFile('example.com')).not.toContain('abc-DEF_123');
    const serialAfter = /(\d+)\s*;\s*serial/i.exec(zoneFile('sub.example.com'))?.[1];
    expect(Number(serialAfter)).toBeGreaterThan(Number(serialBefore));

    await dns.removeChallengeTxt(rec);
    expect(zoneFile('sub.example.com')).not.toContain('abc-DEF_123');
    const left = await t.deps.database.db
      .selectFrom('dns_records')
      .selectAll()
      .where('rtype', '=', 'TXT')
      .execute();
    expect(left).toEqual([]);
    await expect(dns.addChallengeTxt('_acme-challenge.example.org', 'x')).rejects.toThrow(/No DNS zone/);
  });
});
