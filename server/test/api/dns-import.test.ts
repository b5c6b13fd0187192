import { existsSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dialects, startTestApp, type TestContext } from '../harness.ts';
import { skipLoudly } from '../skip-loudly.ts';
import { zoneForm } from '../dns-zone-form.ts';

const HAS_CHECKER = existsSync('/usr/bin/named-checkconf') || existsSync('/usr/sbin/named-checkconf');
if (!HAS_CHECKER) {
  const msg =
    'named-checkconf missing (Debian package bind9-utils): DNS checker-refusal API tests are SKIPPED';
  skipLoudly(msg);
}

describe.each(dialects())('DNS record import on %s', (dialect) => {
  let t: TestContext;
  const call = (method: 'GET' | 'POST', url: string, payload?: object) =>
    t.call({ method, url: `/api/${url}`, ...(payload ? { payload } : {}) });
  const importCsv = (csv: string, query = '') =>
    t.call({
      method: 'POST',
      url: `/api/dns/records/import${query}`,
      headers: { 'content-type': 'text/csv' },
      payload: csv,
    });
  const total = async () => Number((await call('GET', 'dns/records')).headers['x-total-count']);

  beforeAll(async () => {
    t = await startTestApp(dialect);
    for (const d of ['example.com', 'other.org'])
      expect((await call('POST', 'dns/zones/add', zoneForm(d))).statusCode).toBe(200);
  });
  afterAll(async () => t.close());

  const CSV = [
    'zone,name,type,value,ttl,priority',
    'example.com,www,A,192.0.2.1,3600,',
    '',
    'example.com,@,MX,mail.example.com,3600,10',
    'example.com,txt,TXT,"v=spf1 a, mx -all ""quoted""",3600,',
    'example.com,_sip._tcp,SRV,20 5060 sip.example.com,3600,10',
    'other.org,www,CNAME,example.com.,3600,',
    'other.org,www,A,192.0.2.2,3600,',
    'example.com,,A,192.0.2.3,3600,',
    'example.com,bad,A,999.0.0.1,3600,',
    'missing.test,www,A,192.0.2.4,3600,',
    'example.com,www,A,192.0.2.1,3600,',
    'example.com,low,A,192.0.2.5,10,',
    'example.com,nottl,A,192.0.2.5,,',
    'example.com,mx2,MX,mx.example.com,3600,',
    'example.com,t,BOGUS,x,3600,',
    '',
  ].join('\r\n');

  it('checks a file on a dry run without storing anything', async () => {
    const before = await total();
    const res = await importCsv(CSV, '?dryRun=1');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ imported: 5, skipped: 9, dryRun: true });
    expect(await total()).toBe(before);
  });

  it('imports the good rows and reports each refused row with its line and reason', async () => {
    const res = await importCsv(CSV);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ imported: 5, skipped: 9, dryRun: false });
    expect(body.errors).toEqual([
      { row: 8, message: 'A CNAME record cannot coexist with other records at www' },
      { row: 9, message: 'Name is required (use @ for the zone apex)' },
      { row: 10, message: 'Value must be a valid IPv4 address' },
      { row: 11, message: 'Zone missing.test not found' },
      { row: 12, message: 'An identical record already exists' },
      { row: 13, message: 'TTL must be between 300 and 86400' },
      { row: 14, message: 'TTL is required' },
      { row: 15, message: 'Priority is required' },
      { row: 16, message: 'Record Type must be one of A, AAAA, CNAME, MX, TXT, NS, SRV, PTR, CAA' },
    ]);
    const recs = (await call('GET', 'dns/records?zone=example.com&limit=100')).json<
      {
        qname: string;
        rtype: string;
        value: string;
        priority: number | null;
        weight: number | null;
        port: number | null;
      }[]
    >();
    expect(recs.find((r) => r.rtype === 'TXT')?.value).toBe('v=spf1 a, mx -all "quoted"');
    expect(recs.find((r) => r.rtype === 'SRV')).toMatchObject({
      value: 'sip.example.com',
      priority: 10,
      weight: 20,
      port: 5060,
    });
    expect(recs.find((r) => r.rtype === 'MX')).toMatchObject({ qname: '', priority: 10 });
    const other = (await call('GET', 'dns/records/other.org')).json<{ rtype: string; value: string }[]>();
    expect(other).toMatchObject([{ rtype: 'CNAME', value: 'example.com' }]);
    expect((await call('GET', 'dns/zones/example.com')).json().records).toBe(4);
    const file = (await call('GET', 'dns/zones/example.com/zonefile')).json().content as string;
    expect(file).toContain('txt\t3600\tIN\tTXT\t"v=spf1 a, mx -all \\"quoted\\""');
    const audit = (await call('GET', 'audit?action=dns.record.import')).json();
    expect(audit.entries[0]).toMatchObject({ outcome: 'success' });
    expect(JSON.parse(audit.entries[0].details)).toEqual({ imported: 5, skipped: 9, dryRun: false });
  });

  it('refuses a second import of the same rows as duplicates', async () => {
    const res = await importCsv('example.com,www,A,192.0.2.1,3600\n');
    expect(res.json()).toMatchObject({
      imported: 0,
      skipped: 1,
      errors: [{ row: 1, message: 'An identical record already exists' }],
    });
  });

  it('takes large files beyond the JSON body limit (as a job: 202, then the job has the answer)', async () => {
    const lines = ['zone,name,type,value,ttl,priority'];
    for (let i = 0; i < 30_000; i++)
      lines.push(`other.org,h${i},A,10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255},3600,`);
    const csv = lines.join('\n');
    expect(csv.length).toBeGreaterThan(1024 * 1024);
    const res = await importCsv(csv);
    expect(res.statusCode, res.body.slice(0, 300)).toBe(202);
    const { jobId } = res.json<{ jobId: number }>();
    await t.deps.jobs!.settled(jobId);
    const job = (await call('GET', `jobs/${jobId}`)).json();
    expect(job).toMatchObject({ state: 'succeeded', counts: { imported: 30_000, skipped: 0, errors: 0 } });
    expect(job.result).toMatchObject({ imported: 30_000, skipped: 0, errors: [] });
    expect((await call('GET', 'dns/records/other.org?limit=1')).headers['x-total-count']).toBe('30001');
  });

  it('renders an import into an empty zone exactly as a later re-render from the database', async () => {
    expect((await call('POST', 'dns/zones/add', zoneForm('fresh.test'))).statusCode).toBe(200);
    const csv = [
      'fresh.test,www,TXT,b,3600',
      'fresh.test,_x._tcp,SRV,1 1 sip.fresh.test,3600,1',
      'fresh.test,www,A,192.0.2.2,3600',
      'fresh.test,Www,TXT,a,3600',
      'fresh.test,*.w,A,192.0.2.3,3600',
      'fresh.test,@,MX,mx.fresh.test,3600,5',
      'fresh.test,a-b,A,192.0.2.4,3600',
      'fresh.test,www,A,192.0.2.1,3600',
    ].join('\n');
    expect((await importCsv(csv)).json()).toMatchObject({ imported: 8, skipped: 0 });
    const before = (await call('GET', 'dns/zones/fresh.test/zonefile')).json();
    expect((await call('POST', 'dns/apply')).statusCode).toBe(200);
    const after = (await call('GET', 'dns/zones/fresh.test/zonefile')).json();
    expect(after.serial).toBe(before.serial);
    expect(after.content).toBe(before.content);
    // File order is kept among records of one name and type.
    expect(after.content.indexOf('192.0.2.2')).toBeLessThan(after.content.indexOf('192.0.2.1'));
  });

  it.skipIf(!HAS_CHECKER)('imports nothing when BIND refuses a zone the file would produce', async () => {
    const before = await total();
    const zoneBefore = (await call('GET', 'dns/zones/example.com')).json();
    const res = await importCsv('example.com,ok,A,192.0.2.9,3600\nexample.com,@,NS,ns7,3600\n');
    expect(res.statusCode).toBe(422);
    expect(res.json().message).toContain("ns7.example.com' has no address records");
    expect(await total()).toBe(before);
    expect((await call('GET', 'dns/zones/example.com')).json().soa.serial).toBe(zoneBefore.soa.serial);
  });

  it('answers 400 for a body that is not text', async () => {
    const res = await t.call({ method: 'POST', url: '/api/dns/records/import', payload: { rows: [] } });
    expect(res.statusCode).toBe(400);
  });
});
