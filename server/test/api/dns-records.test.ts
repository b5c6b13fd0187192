import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dialects, startTestApp, type TestContext } from '../harness.ts';
import { zoneForm } from '../dns-zone-form.ts';

interface Rec {
  id: number;
  zone: string;
  qname: string;
  rtype: string;
  value: string;
  ttl: number;
  priority: number | null;
  weight: number | null;
  port: number | null;
}

describe.each(dialects())('DNS records on %s', (dialect) => {
  let t: TestContext;
  const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) =>
    t.call({ method, url: `/api/${url}`, ...(payload ? { payload } : {}) });
  const add = (r: object, zone = 'example.com') => call('POST', `dns/zones/${zone}/records`, r);
  const zoneFile = () => readFileSync(t.deps.host.path('/etc/bind/mailroom/zones/db.example.com'), 'utf8');
  const serial = async () =>
    (await call('GET', 'dns/zones/example.com')).json<{ soa: { serial: number } }>().soa.serial;

  beforeAll(async () => {
    t = await startTestApp(dialect);
    for (const d of ['example.com', 'other.org'])
      expect((await call('POST', 'dns/zones/add', zoneForm(d))).statusCode).toBe(200);
  });
  afterAll(async () => t.close());

  it('adds a record with ttl 300 by default, renders it and bumps the serial', async () => {
    const before = await serial();
    const res = await add({ qname: 'www', rtype: 'A', value: '192.0.2.1' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      zone: 'example.com',
      qname: 'www',
      rtype: 'A',
      value: '192.0.2.1',
      ttl: 300,
      priority: null,
    });
    expect(await serial()).toBe(before + 1);
    expect(zoneFile()).toContain('www\t300\tIN\tA\t192.0.2.1\n');
    expect((await call('GET', 'dns/zones/example.com')).json().records).toBe(1);
  });

  it('accepts the spec form at dns/records/add and stores the apex as an empty name', async () => {
    const res = await call('POST', 'dns/records/add', {
      zone: 'example.com',
      qname: '@',
      rtype: 'MX',
      value: 'mail.example.com',
      ttl: 3600,
      priority: 10,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      qname: '',
      rtype: 'MX',
      value: 'mail.example.com',
      priority: 10,
      ttl: 3600,
    });
    expect(zoneFile()).toContain('@\t3600\tIN\tMX\t10 mail.example.com.\n');
    const missing = await call('POST', 'dns/records/add', {
      zone: 'example.com',
      qname: 'a',
      rtype: 'A',
      value: '192.0.2.1',
    });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().details).toContainEqual({ field: 'ttl', message: 'TTL is required' });
    const zero = await call('POST', 'dns/records/add', {
      zone: 'example.com',
      qname: 'a',
      rtype: 'A',
      value: '192.0.2.1',
      ttl: 0,
    });
    expect(zero.json().details).toContainEqual({ field: 'ttl', message: 'TTL must be at least 1' });
    const nozone = await call('POST', 'dns/records/add', {
      zone: 'nope.test',
      qname: 'a',
      rtype: 'A',
      value: '192.0.2.1',
      ttl: 300,
    });
    expect(nozone.statusCode).toBe(404);
  });

  it('checks each type and names the field', async () => {
    const cases: [object, string, string][] = [
      [{ qname: 'a', rtype: 'A', value: '300.1.1.1' }, 'value', 'Value must be a valid IPv4 address'],
      [{ qname: 'a', rtype: 'A', value: '' }, 'value', 'Value is required'],
      [{ qname: 'a', rtype: 'AAAA', value: '2001:db8::g' }, 'value', 'Value must be a valid IPv6 address'],
      [{ qname: 'a', rtype: 'CNAME', value: 'bad host' }, 'value', 'Value must be a valid host name'],
      [{ qname: 'a', rtype: 'NS', value: '-bad.example' }, 'value', 'Value must be a valid host name'],
      [{ qname: 'a', rtype: 'PTR', value: 'x..y' }, 'value', 'Value must be a valid host name'],
      [{ qname: '@', rtype: 'MX', value: 'mail.example.com' }, 'priority', 'Priority is required'],
      [
        { qname: '@', rtype: 'MX', value: 'mail.example.com', priority: 70000 },
        'priority',
        'Priority must be at most 65535',
      ],
      [
        { qname: '@', rtype: 'MX', value: 'mail.example.com', priority: -1 },
        'priority',
        'Priority must be at least 0',
      ],
      [
        { qname: '_sip._tcp', rtype: 'SRV', value: 'sip.example.com', priority: 1, weight: 1 },
        'port',
        'Port is required',
      ],
      [
        { qname: '_sip._tcp', rtype: 'SRV', value: 'sip.example.com', priority: 1, port: 5060 },
        'weight',
        'Weight is required',
      ],
      [
        { qname: '_sip._tcp', rtype: 'SRV', value: 'sip.example.com', priority: 1, weight: 1, port: 65536 },
        'port',
        'Port must be at most 65535',
      ],
      [
        { qname: 'sip', rtype: 'SRV', value: 'sip.example.com', priority: 1, weight: 1, port: 5060 },
        'qname',
        'Name must look like _service._proto (for example _sip._tcp) for SRV records',
      ],
      [
        { qname: '@', rtype: 'CAA', value: '0 issue' },
        'value',
        'Value must be "flags tag value", flags 0 to 255, tag issue, issuewild or iodef',
      ],
      [
        { qname: '@', rtype: 'CAA', value: '256 issue "ca.example"' },
        'value',
        'Value must be "flags tag value", flags 0 to 255, tag issue, issuewild or iodef',
      ],
      [
        { qname: '@', rtype: 'CAA', value: '0 policy "x"' },
        'value',
        'Value must be "flags tag value", flags 0 to 255, tag issue, issuewild or iodef',
      ],
      [
        { qname: 'a b', rtype: 'A', value: '192.0.2.1' },
        'qname',
        'Name must be @ or a valid name inside the zone',
      ],
      [
        { qname: 'www.other.org.', rtype: 'A', value: '192.0.2.1' },
        'qname',
        'Name must be inside the zone example.com',
      ],
      [
        { qname: 'a', rtype: 'HINFO', value: 'x' },
        'rtype',
        'Record Type must be one of A, AAAA, CNAME, MX, TXT, NS, SRV, PTR, CAA',
      ],
      [{ qname: 'a', rtype: 'A', value: '192.0.2.1', ttl: 'soon' }, 'ttl', 'TTL is required'],
    ];
    for (const [body, field, message] of cases) {
      const res = await add(body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().details, JSON.stringify(body)).toContainEqual({ field, message });
    }
    expect((await call('GET', 'dns/records/example.com')).headers['x-total-count']).toBe('2');
  });

  it('stores each type in its normal form and renders it in BIND syntax', async () => {
    const ok: object[] = [
      { qname: 'v6', rtype: 'AAAA', value: '2001:DB8::1' },
      { qname: 'alias', rtype: 'CNAME', value: 'www' },
      { qname: 'sub', rtype: 'NS', value: 'ns.elsewhere.net.' },
      { qname: '_sip._tcp', rtype: 'SRV', value: 'sip.example.com', priority: 10, weight: 60, port: 5060 },
      { qname: '@', rtype: 'CAA', value: '0 issue "letsencrypt.org"' },
      { qname: '1', rtype: 'PTR', value: 'host.example.com' },
      { qname: 'txt', rtype: 'TXT', value: 'say "hi" \\ ' + 'x'.repeat(300) },
      { qname: 'www2.example.com.', rtype: 'A', value: '192.0.2.2' },
      { qname: '*.wild', rtype: 'A', value: '192.0.2.3' },
    ];
    for (const body of ok) {
      const res = await add(body);
      expect(res.statusCode, `${JSON.stringify(body)} ${res.body}`).toBe(200);
    }
    const list = (await call('GET', 'dns/records/example.com?limit=100')).json<Rec[]>();
    const by = (q: string, ty: string) => list.find((r) => r.qname === q && r.rtype === ty);
    expect(by('v6', 'AAAA')?.value).toBe('2001:db8::1');
    expect(by('alias', 'CNAME')?.value).toBe('www.example.com');
    expect(by('sub', 'NS')?.value).toBe('ns.elsewhere.net');
    expect(by('_sip._tcp', 'SRV')).toMatchObject({
      priority: 10,
      weight: 60,
      port: 5060,
      value: 'sip.example.com',
    });
    expect(by('www2', 'A')?.value).toBe('192.0.2.2');
    const text = zoneFile();
    expect(text).toContain('alias\t300\tIN\tCNAME\twww.example.com.\n');
    expect(text).toContain('_sip._tcp\t300\tIN\tSRV\t10 60 5060 sip.example.com.\n');
    expect(text).toContain('@\t300\tIN\tCAA\t0 issue "letsencrypt.org"\n');
    expect(text).toContain('*.wild\t300\tIN\tA\t192.0.2.3\n');
    const txtLine = text.split('\n').find((l) => l.startsWith('txt\t')) ?? '';
    expect(txtLine).toContain('"say \\"hi\\" \\\\ ' + 'x'.repeat(244) + '" "' + 'x'.repeat(56) + '"');
  });

  it('keeps a CNAME alone at its name, either way round', async () => {
    const cname = await add({ qname: 'www', rtype: 'CNAME', value: 'elsewhere.net' });
    expect(cname.statusCode).toBe(409);
    expect(cname.json().message).toBe('A CNAME record cannot coexist with other records at www');
    const other = await add({ qname: 'alias', rtype: 'TXT', value: 'x' });
    expect(other.statusCode).toBe(409);
    expect(other.json().message).toBe('A CNAME record cannot coexist with other records at alias');
    const second = await add({ qname: 'alias', rtype: 'CNAME', value: 'other.net' });
    expect(second.statusCode).toBe(409);
    const apex = await add({ qname: '@', rtype: 'CNAME', value: 'other.net' });
    expect(apex.statusCode).toBe(400);
    expect(apex.json().message).toBe('A CNAME record cannot coexist with other records at @');
    const dup = await add({ qname: 'www', rtype: 'A', value: '192.0.2.1' });
    expect(dup.statusCode).toBe(409);
    expect(dup.json().message).toBe('An identical record already exists');
  });

  it('holds TTLs within the settings bounds and honours the wildcard switch', async () => {
    const s = (await call('GET', 'dns/settings')).json();
    expect((await add({ qname: 'low', rtype: 'A', value: '192.0.2.4', ttl: 299 })).json().message).toBe(
      'TTL must be between 300 and 86400',
    );
    expect((await add({ qname: 'high', rtype: 'A', value: '192.0.2.4', ttl: 86401 })).statusCode).toBe(400);
    const saved = await call('POST', 'dns/settings', { ...s, minTtl: 60, enableWildcardQueries: false });
    expect(saved.statusCode, saved.body).toBe(200);
    expect((await add({ qname: 'low', rtype: 'A', value: '192.0.2.4', ttl: 60 })).statusCode).toBe(200);
    const wild = await add({ qname: '*.w2', rtype: 'A', value: '192.0.2.4' });
    expect(wild.statusCode).toBe(400);
    expect(wild.json().details).toEqual([
      { field: 'qname', message: 'Wildcard names are turned off in the DNS settings' },
    ]);
  });

  it('pages and filters on the server: zone, type, q over name, value and type', async () => {
    await add({ qname: 'www', rtype: 'A', value: '198.51.100.1' }, 'other.org');
    await add({ qname: 'mail', rtype: 'MX', value: 'mx.other.org', priority: 5 }, 'other.org');
    const all = await call('GET', 'dns/records?limit=3');
    const total = Number(all.headers['x-total-count']);
    expect(all.json()).toHaveLength(3);
    expect(total).toBe((await call('GET', 'dns/dashboard')).json().totalRecords);
    const a = await call('GET', 'dns/records?type=A');
    expect(a.json<Rec[]>().every((r) => r.rtype === 'A')).toBe(true);
    expect(Number(a.headers['x-total-count'])).toBe(a.json<Rec[]>().length);
    const zoneA = await call('GET', 'dns/records?zone=other.org&type=A');
    expect(zoneA.json<Rec[]>().map((r) => r.value)).toEqual(['198.51.100.1']);
    const q = await call('GET', 'dns/records?q=198.51');
    expect(q.json<Rec[]>().map((r) => r.zone)).toEqual(['other.org']);
    expect((await call('GET', 'dns/records?q=mx')).headers['x-total-count']).toBe('2');
    expect((await call('GET', 'dns/records?q=%25')).json()).toEqual([]);
    const apex = await call('GET', 'dns/records/example.com?q=@');
    expect(apex.json<Rec[]>().some((r) => r.qname === '')).toBe(true);
    const sorted = await call('GET', 'dns/records/example.com?sort=-ttl&limit=1');
    expect(sorted.json<Rec[]>()[0]?.ttl).toBe(3600);
    const legacy = await t.call({ method: 'GET', url: '/api/index.php?path=dns/records/other.org&type=MX' });
    expect(legacy.json<Rec[]>().map((r) => r.value)).toEqual(['mx.other.org']);
    expect((await call('GET', 'dns/records?type=BOGUS')).statusCode).toBe(400);
    expect((await call('GET', 'dns/records/none.test')).statusCode).toBe(404);
  });

  it('edits and deletes by name and type, choosing among several by value or id', async () => {
    await add({ qname: 'multi', rtype: 'A', value: '192.0.2.10' });
    const second = (await add({ qname: 'multi', rtype: 'A', value: '192.0.2.11' })).json<Rec>();
    const ambiguous = await call('PUT', 'dns/zones/example.com/records/multi/A', {
      qname: 'multi',
      rtype: 'A',
      value: '192.0.2.12',
    });
    expect(ambiguous.statusCode).toBe(409);
    expect(ambiguous.json().message).toBe(
      '2 records match; give the zone and the value (or the id) to choose one',
    );
    const before = await serial();
    const edited = await call('PUT', 'dns/zones/example.com/records/multi/A?value=192.0.2.10', {
      qname: 'multi',
      rtype: 'A',
      value: '192.0.2.12',
      ttl: 600,
    });
    expect(edited.statusCode, edited.body).toBe(200);
    expect(edited.json()).toMatchObject({ value: '192.0.2.12', ttl: 600 });
    expect(await serial()).toBe(before + 1);
    expect(zoneFile()).toContain('multi\t600\tIN\tA\t192.0.2.12\n');
    const byId = await call('PUT', `dns/zones/example.com/records/multi/A?id=${second.id}`, {
      qname: 'renamed',
      rtype: 'A',
      value: '192.0.2.11',
    });
    expect(byId.json()).toMatchObject({ id: second.id, qname: 'renamed' });
    const clash = await call('PUT', 'dns/zones/example.com/records/renamed/A', {
      qname: 'alias',
      rtype: 'A',
      value: '192.0.2.11',
    });
    expect(clash.statusCode).toBe(409);
    expect(
      (
        await call('PUT', 'dns/zones/example.com/records/nothing/A', {
          qname: 'x',
          rtype: 'A',
          value: '192.0.2.1',
        })
      ).statusCode,
    ).toBe(404);

    const apexMx = await call('PUT', 'dns/zones/example.com/records/@/MX', {
      qname: '@',
      rtype: 'MX',
      value: 'mx2.example.com',
      priority: 20,
      ttl: 3600,
    });
    expect(apexMx.json()).toMatchObject({ qname: '', value: 'mx2.example.com', priority: 20 });

    const del = await call('DELETE', 'dns/zones/example.com/records/renamed/A');
    expect(del.statusCode).toBe(200);
    expect(zoneFile()).not.toContain('renamed\t');
    expect((await call('DELETE', 'dns/zones/example.com/records/renamed/A')).statusCode).toBe(404);
    const legacyDel = await t.call({
      method: 'DELETE',
      url: '/api/index.php?path=dns/zones/example.com/records/multi/A',
    });
    expect(legacyDel.statusCode).toBe(200);
  });

  it('keeps the kept counts equal to counting the rows, per zone and type', async () => {
    // An edit that changes the type moves the count between types.
    const moved = await call('PUT', 'dns/zones/example.com/records/v6/AAAA', {
      qname: 'v6',
      rtype: 'TXT',
      value: 'was ipv6',
    });
    expect(moved.statusCode, moved.body).toBe(200);
    const totalOf = async (url: string) => Number((await call('GET', url)).headers['x-total-count']);
    for (const type of ['A', 'AAAA', 'MX', 'TXT', 'SRV', 'CNAME', 'NS', 'CAA', 'PTR']) {
      // With q the total is counted from the rows; without, it comes from the kept counts.
      const letter = type.toLowerCase();
      expect(await totalOf(`dns/records?type=${type}`), type).toBe(
        await totalOf(`dns/records?type=${type}&q=${letter}`),
      );
      expect(await totalOf(`dns/records?zone=example.com&type=${type}`), type).toBe(
        await totalOf(`dns/records?zone=example.com&type=${type}&q=${letter}`),
      );
    }
    expect(await totalOf('dns/records?type=AAAA&zone=example.com')).toBe(0);
  });

  it('removes with the spec body {qname, rtype}, absolute or relative, narrowing by zone and value', async () => {
    const count = async () => Number((await call('GET', 'dns/records')).headers['x-total-count']);
    const n = await count();
    const ambiguous = await call('POST', 'dns/records/remove', { qname: 'www', rtype: 'A' });
    expect(ambiguous.statusCode).toBe(409);
    expect(
      (await call('POST', 'dns/records/remove', { qname: 'www.other.org', rtype: 'A' })).statusCode,
    ).toBe(200);
    expect(await count()).toBe(n - 1);
    expect(
      (
        await call('POST', 'dns/records/remove', {
          qname: 'www',
          rtype: 'A',
          zone: 'example.com',
          value: '192.0.2.1',
        })
      ).statusCode,
    ).toBe(200);
    expect((await call('POST', 'dns/records/remove', { qname: 'www', rtype: 'A' })).statusCode).toBe(404);
    expect(
      (await call('POST', 'dns/records/remove', { qname: '@', rtype: 'MX', zone: 'example.com' })).statusCode,
    ).toBe(200);
    expect(await count()).toBe(n - 3);
    const audit = (await call('GET', 'audit?action=dns.record.')).json();
    expect(
      audit.entries.some(
        (e: { action: string; outcome: string }) =>
          e.action === 'dns.record.delete' && e.outcome === 'success',
      ),
    ).toBe(true);
    expect(
      audit.entries.some(
        (e: { action: string; target: string }) =>
          e.action === 'dns.record.create' && e.target === 'www A in example.com',
      ),
    ).toBe(true);
  });
  it('bulk-deletes a selection across zones in one change: each zone republished once; one unknown id changes nothing', async () => {
    const a = (await add({ qname: 'bulk-a', rtype: 'A', value: '192.0.2.61' })).json<Rec>();
    const b = (await add({ qname: 'bulk-b', rtype: 'TXT', value: 'bulk b' })).json<Rec>();
    const c = (await add({ qname: 'bulk-c', rtype: 'A', value: '192.0.2.62' }, 'other.org')).json<Rec>();
    const before = await serial();
    const refused = await call('POST', 'dns/records/bulk-remove', { ids: [a.id, b.id, 999_999] });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().details[0]).toMatchObject({
      field: 'ids',
      message: expect.stringContaining('999999'),
    });
    expect(zoneFile()).toContain('bulk-a\t');
    expect(await serial()).toBe(before);

    const gone = await call('POST', 'dns/records/bulk-remove', { ids: [a.id, b.id, c.id] });
    expect(gone.statusCode, gone.body).toBe(200);
    expect(gone.json()).toEqual({ success: true, removed: 3 });
    expect(await serial()).toBe(before + 1);
    expect(zoneFile()).not.toContain('bulk-a\t');
    expect(zoneFile()).not.toContain('bulk-b\t');
    const left = (await call('GET', 'dns/records?q=bulk-&limit=100')).json<Rec[]>();
    expect(left.map((r) => r.qname)).toEqual([]);
    const audit = (await call('GET', 'audit?action=dns.record.bulk-delete')).json().entries as {
      target: string;
    }[];
    expect(audit.map((e) => e.target)).toContain('3 records');
    expect((await call('POST', 'dns/records/bulk-remove', { ids: [] })).statusCode).toBe(400);
    expect((await call('POST', 'dns/records/bulk-remove', { ids: ['x'] })).statusCode).toBe(400);
  });
});
