import { existsSync, readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dialects, startTestApp, type TestContext } from '../harness.ts';
import { zoneForm } from '../dns-zone-form.ts';

const ZONE_FORM = zoneForm('example.com');

const today = () => {
  const d = new Date();
  return (d.getUTCFullYear() * 10000 + (d.getUTCMonth() + 1) * 100 + d.getUTCDate()) * 100;
};

describe.each(dialects())('DNS zones on %s', (dialect) => {
  let t: TestContext;
  const post = (url: string, payload?: object) =>
    t.call({ method: 'POST', url: `/api/${url}`, ...(payload ? { payload } : {}) });
  const get = (url: string) => t.call({ method: 'GET', url: `/api/${url}` });

  beforeAll(async () => {
    t = await startTestApp(dialect);
  });
  afterAll(async () => t.close());

  it('creates a zone from the spec form: active, 0 records, SOA minimum 300, serial YYYYMMDDnn', async () => {
    const res = await post('dns/zones/add', ZONE_FORM);
    expect(res.statusCode, res.body).toBe(200);
    const z = res.json();
    expect(z).toMatchObject({
      domain: 'example.com',
      zoneType: 'primary',
      status: 'active',
      records: 0,
      primaries: [],
    });
    expect(z.soa).toEqual({
      primary: 'ns1.example.net',
      email: 'hostmaster@example.net',
      serial: today(),
      refresh: 3600,
      retry: 1800,
      expire: 604800,
      minimum: 300,
    });
    expect(Date.now() - Date.parse(z.lastUpdated)).toBeLessThan(60_000);
    const file = readFileSync(t.deps.host.path('/etc/bind/mailroom/zones/db.example.com'), 'utf8');
    expect(file).toContain('$ORIGIN example.com.');
    expect(file).toContain(`${today()}\t; serial`);
    expect(file).toContain('@\t3600\tIN\tNS\tns1.example.net.');
    const zones = readFileSync(t.deps.host.path('/etc/bind/mailroom/zones.conf'), 'utf8');
    expect(zones).toContain(
      `zone "example.com" { type primary; file "${t.deps.host.path('/etc/bind/mailroom/zones/db.example.com')}"; };`,
    );
  });

  it('keeps a higher serial asked for on creation', async () => {
    const res = await post('dns/zones/add', { ...ZONE_FORM, domain: 'serial.example', serial: today() + 50 });
    expect(res.json().soa.serial).toBe(today() + 50);
  });

  it('refuses bad forms with the spec messages, naming the field', async () => {
    const cases: [object, string, string][] = [
      [{ domain: 'not a domain' }, 'domain', 'Please enter a valid domain name'],
      [{ domain: '' }, 'domain', 'Domain Name is required'],
      [{ adminEmail: 'nope' }, 'adminEmail', 'Please enter a valid email address'],
      [{ serial: 0 }, 'serial', 'Serial Number must be at least 1'],
      [{ refresh: 0 }, 'refresh', 'Refresh Interval must be at least 1'],
      [{ retry: 0 }, 'retry', 'Retry Interval must be at least 1'],
      [{ expire: 0 }, 'expire', 'Expire Time must be at least 1'],
      [{ primaryNs: 'bad host!' }, 'primaryNs', 'Primary Nameserver must be a valid host name'],
      [{ zoneType: 'tertiary' }, 'zoneType', 'Zone Type is required'],
      [{ zoneType: 'secondary' }, 'primaries', 'Primary Servers is required'],
    ];
    for (const [patch, field, message] of cases) {
      const res = await post('dns/zones/add', { ...ZONE_FORM, domain: 'bad.example', ...patch });
      expect(res.statusCode, JSON.stringify(patch)).toBe(400);
      expect(res.json().details).toContainEqual({ field, message });
    }
    const missing = await post('dns/zones/add', { domain: 'x.example' });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().details.map((d: { field: string }) => d.field)).toEqual(
      expect.arrayContaining(['zoneType', 'primaryNs', 'adminEmail', 'serial', 'refresh', 'retry', 'expire']),
    );
    expect((await get('dns/zones?q=bad.example')).json()).toEqual([]);
  });

  it('answers 409 for a zone that exists', async () => {
    const res = await post('dns/zones/add', { ...ZONE_FORM, domain: 'EXAMPLE.com' });
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toBe('Zone example.com already exists');
  });

  it('needs the address of a primary nameserver inside the zone, and adds it as a record', async () => {
    const inside = { ...ZONE_FORM, domain: 'inside.example', primaryNs: 'ns1.inside.example' };
    const refused = await post('dns/zones/add', inside);
    expect(refused.statusCode).toBe(400);
    expect(refused.json().details[0].field).toBe('primaryNs');
    const ok = await post('dns/zones/add', { ...inside, nsAddress: '192.0.2.53' });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json().records).toBe(1);
    const recs = (await get('dns/records/inside.example')).json();
    expect(recs).toMatchObject([{ zone: 'inside.example', qname: 'ns1', rtype: 'A', value: '192.0.2.53' }]);
  });

  it('lists zones newest first, pages, searches by domain and sends X-Total-Count', async () => {
    for (const d of ['alpha.test', 'beta.test', 'gamma.test']) {
      expect((await post('dns/zones/add', { ...ZONE_FORM, domain: d })).statusCode).toBe(200);
    }
    const all = await get('dns/zones');
    expect(all.headers['x-total-count']).toBe('6');
    expect(all.json()[0].domain).toBe('gamma.test');
    const page = await get('dns/zones?limit=2&offset=1&sort=domain');
    expect(page.json().map((z: { domain: string }) => z.domain)).toEqual(['beta.test', 'example.com']);
    expect(page.headers['x-total-count']).toBe('6');
    const search = await get('dns/zones?q=.TEST');
    expect(search.headers['x-total-count']).toBe('3');
    const none = await get('dns/zones?q=%25');
    expect(none.json()).toEqual([]);
    const legacy = await t.call({ method: 'GET', url: '/api/index.php?path=dns/zones&q=alpha' });
    expect(legacy.json().map((z: { domain: string }) => z.domain)).toEqual(['alpha.test']);
    expect((await get('dns/zones/alpha.test')).json().domain).toBe('alpha.test');
    expect((await get('dns/zones/missing.test')).statusCode).toBe(404);
  });

  it('pages zones by cursor in every sort, forward and back, like mailboxes and records', async () => {
    for (const sort of ['domain', '-domain', 'records', '-created', 'status']) {
      const all = (await get(`dns/zones?sort=${sort}&limit=1000`))
        .json()
        .map((z: { domain: string }) => z.domain);
      expect(all.length).toBe(6);
      const seen: string[] = [];
      const cursors: string[] = [];
      let res = await get(`dns/zones?sort=${sort}&limit=2`);
      for (;;) {
        expect(res.statusCode, res.body).toBe(200);
        expect(res.headers['x-total-count']).toBe('6');
        seen.push(...res.json().map((z: { domain: string }) => z.domain));
        const next = res.headers['x-next-cursor'] as string | undefined;
        if (!next) break;
        cursors.push(next);
        res = await get(`dns/zones?sort=${sort}&limit=2&cursor=${next}`);
      }
      expect(seen).toEqual(all);
      // Back from the last page to the first.
      const prev = res.headers['x-prev-cursor'] as string;
      const back = await get(`dns/zones?sort=${sort}&limit=2&cursor=${prev}`);
      expect(back.json().map((z: { domain: string }) => z.domain)).toEqual(all.slice(2, 4));
    }
    const search = await get('dns/zones?q=.test&sort=domain&limit=2');
    const next = search.headers['x-next-cursor'] as string;
    const rest = await get(`dns/zones?q=.test&sort=domain&limit=2&cursor=${next}`);
    expect(rest.json().map((z: { domain: string }) => z.domain)).toEqual(['gamma.test']);
    expect(rest.headers['x-next-cursor']).toBeUndefined();
    // A cursor of another sort, or with an offset, is refused naming the field.
    const other = await get(`dns/zones?sort=-domain&limit=2&cursor=${next}`);
    expect(other.statusCode).toBe(400);
    expect((await get(`dns/zones?sort=domain&offset=2&cursor=${next}`)).statusCode).toBe(400);
  });

  it('edits the SOA fields; the serial moves up on every change and never back', async () => {
    const before = (await get('dns/zones/alpha.test')).json();
    const res = await post('dns/zones/update/alpha.test', {
      refresh: 7200,
      adminEmail: 'first.last@example.org',
      serial: 5,
    });
    expect(res.statusCode, res.body).toBe(200);
    const after = res.json();
    expect(after.soa).toMatchObject({ refresh: 7200, email: 'first.last@example.org' });
    expect(after.soa.serial).toBe(before.soa.serial + 1);
    const pushed = await post('dns/zones/update/alpha.test', { serial: today() + 90 });
    expect(pushed.json().soa.serial).toBe(today() + 90);
    const file = (await get('dns/zones/alpha.test/zonefile')).json();
    expect(file).toMatchObject({ zone: 'alpha.test', serial: today() + 90 });
    expect(file.content).toContain('first\\.last.example.org.');
    expect(file.content).toContain('7200\t; refresh');
    const bad = await post('dns/zones/update/alpha.test', { refresh: -1 });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().details[0]).toEqual({
      field: 'refresh',
      message: 'Refresh Interval must be at least 1',
    });
    expect((await post('dns/zones/update/nope.test', { refresh: 5 })).statusCode).toBe(404);
  });

  it('removes an empty zone, and a zone with records only when confirmed', async () => {
    expect((await post('dns/zones/remove/beta.test')).statusCode).toBe(200);
    expect(existsSync(t.deps.host.path('/etc/bind/mailroom/zones/db.beta.test'))).toBe(false);
    expect(readFileSync(t.deps.host.path('/etc/bind/mailroom/zones.conf'), 'utf8')).not.toContain(
      'beta.test',
    );

    const rec = await post('dns/zones/gamma.test/records', { qname: 'www', rtype: 'A', value: '192.0.2.1' });
    expect(rec.statusCode, rec.body).toBe(200);
    const refused = await post('dns/zones/remove/gamma.test');
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toBe(
      'Zone gamma.test still has 1 record; confirm to remove the zone and its records',
    );
    expect((await get('dns/zones/gamma.test')).statusCode).toBe(200);
    const confirmed = await post('dns/zones/remove/gamma.test', { confirm: true });
    expect(confirmed.statusCode).toBe(200);
    expect((await get('dns/zones/gamma.test')).statusCode).toBe(404);
    expect((await get('dns/records?zone=gamma.test')).json()).toEqual([]);

    await post('dns/zones/add', { ...ZONE_FORM, domain: 'delta.test' });
    await post('dns/zones/delta.test/records', { qname: 'www', rtype: 'A', value: '192.0.2.1' });
    const legacy = await t.call({
      method: 'POST',
      url: '/api/index.php?path=dns/zones/remove/delta.test&force=1',
    });
    expect(legacy.statusCode).toBe(200);
    expect((await post('dns/zones/remove/delta.test')).statusCode).toBe(404);
  });

  it('keeps secondary zones as transfers from their primaries, without records', async () => {
    const res = await post('dns/zones/add', {
      ...ZONE_FORM,
      domain: 'copy.test',
      zoneType: 'secondary',
      primaries: ['192.0.2.7'],
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ zoneType: 'secondary', primaries: ['192.0.2.7'], status: 'active' });
    const conf = readFileSync(t.deps.host.path('/etc/bind/mailroom/zones.conf'), 'utf8');
    expect(conf).toContain(
      'zone "copy.test" { type secondary; primaries { 192.0.2.7; }; file "mailroom-secondary-copy.test.db"; };',
    );
    const rec = await post('dns/zones/copy.test/records', { qname: 'www', rtype: 'A', value: '192.0.2.1' });
    expect(rec.statusCode).toBe(409);
    expect((await get('dns/zones/copy.test/zonefile')).statusCode).toBe(404);
    const moved = await post('dns/zones/update/copy.test', { primaries: ['192.0.2.8', '2001:db8::8'] });
    expect(moved.json().primaries).toEqual(['192.0.2.8', '2001:db8::8']);
    expect(readFileSync(t.deps.host.path('/etc/bind/mailroom/zones.conf'), 'utf8')).toContain(
      'primaries { 192.0.2.8; 2001:db8::8; }',
    );
  });

  it('writes every change to the audit log', async () => {
    const audit = (await get('audit?action=dns.zone.')).json();
    const actions = audit.entries.map(
      (e: { action: string; target: string; outcome: string }) => `${e.action} ${e.target} ${e.outcome}`,
    );
    expect(actions).toContain('dns.zone.create example.com success');
    expect(actions).toContain('dns.zone.update alpha.test success');
    expect(actions).toContain('dns.zone.delete gamma.test failure');
    expect(actions).toContain('dns.zone.delete gamma.test success');
  });

  it('shows counts and zones on the dashboard; the server is offline when nothing answers', async () => {
    const d = (await get('dns/dashboard?limit=2')).json();
    expect(d.totalZones).toBe(Number((await get('dns/zones')).headers['x-total-count']));
    expect(d.totalRecords).toBe(1);
    expect(d.zones).toHaveLength(2);
    // Counted by the SSL area: none stored in this test.
    expect(d.sslCertificates).toBe(0);
    expect(d.serverStatus).toBe('offline');
  });
});
