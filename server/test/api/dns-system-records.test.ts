import type { MailDnsFacts } from '@mailroom/contract/mail-dns';
import Fastify, { type FastifyInstance } from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerDns } from '../../src/features/dns/dns.module.ts';
import { installErrorHandler } from '../../src/http/error-handler.ts';
import { dialects, startTestApp, type TestContext } from '../harness.ts';
import { zoneForm } from '../dns-zone-form.ts';

interface SysRec {
  zone: string;
  qname: string;
  rtype: string;
  value: string;
  priority?: number;
  published: boolean;
  state: string;
  explanation: string;
  warning?: string;
}

// The DNS feature as app.ts wires it once the mail area exists: with a provider of mail facts.
describe.each(dialects())('DNS system records from the mail facts on %s', (dialect) => {
  let t: TestContext;
  let app: FastifyInstance;
  const facts: MailDnsFacts[] = [
    {
      domain: 'mail.test',
      mx: [{ priority: 10, host: 'mx.mail.test' }],
      mailHost: 'mx.mail.test',
      spf: true,
      dmarc: true,
      dkim: { selector: 'mr2025', txt: 'v=DKIM1; k=rsa; p=' + 'B'.repeat(380) },
    },
    {
      domain: 'nozone.test',
      mx: [{ priority: 5, host: 'mx.mail.test' }],
      mailHost: 'mx.mail.test',
      spf: false,
      dmarc: false,
      dkim: null,
    },
  ];
  const call = async (method: 'GET' | 'POST' | 'PUT', url: string, payload?: object) =>
    app.inject({ method, url: `/api/${url}`, ...(payload ? { payload } : {}) });
  const zoneFile = async () =>
    (await call('GET', 'dns/zones/mail.test/zonefile')).json<{ content: string; serial: number }>();

  beforeAll(async () => {
    t = await startTestApp(dialect);
    app = Fastify();
    app.setValidatorCompiler(validatorCompiler);
    app.setSerializerCompiler(serializerCompiler);
    installErrorHandler(app);
    registerDns(app, t.deps, { mailFacts: async () => facts });
    await app.ready();
  });
  afterAll(async () => {
    await app.close();
    await t.close();
  });

  it('derives MX, SPF, DKIM, DMARC and autoconfig/autodiscover, explained and not served without a zone', async () => {
    const res = await call('GET', 'dns/system-records?zone=mail.test');
    expect(res.statusCode, res.body).toBe(200);
    const recs = res.json<SysRec[]>();
    expect(recs.map((r) => `${r.qname || '@'} ${r.rtype} ${r.value}`)).toEqual([
      '@ MX mx.mail.test',
      '@ TXT v=spf1 mx -all',
      `mr2025._domainkey TXT v=DKIM1; k=rsa; p=${'B'.repeat(380)}`,
      '_dmarc TXT v=DMARC1; p=quarantine; rua=mailto:postmaster@mail.test',
      'autoconfig CNAME mx.mail.test',
      'autodiscover CNAME mx.mail.test',
    ]);
    expect(
      recs.every(
        (r) =>
          !r.published &&
          r.state === 'no-zone' &&
          r.explanation.includes('there is no DNS zone for mail.test'),
      ),
    ).toBe(true);
    expect(recs[0]).toMatchObject({ priority: 10, source: 'mail' });
    expect((await call('GET', 'dns/system-records')).json<SysRec[]>()).toHaveLength(9);
  });

  it('renders them into the mail domain zone, read-only beside the records', async () => {
    expect((await call('POST', 'dns/zones/add', zoneForm('mail.test'))).statusCode).toBe(200);
    const { content } = await zoneFile();
    expect(content).toContain('; system records, derived from the mail settings\n');
    expect(content).toContain('@\t3600\tIN\tMX\t10 mx.mail.test.\n');
    expect(content).toContain('@\t3600\tIN\tTXT\t"v=spf1 mx -all"\n');
    expect(content).toContain(
      `mr2025._domainkey\t3600\tIN\tTXT\t"v=DKIM1; k=rsa; p=${'B'.repeat(237)}" "${'B'.repeat(143)}"\n`,
    );
    expect(content).toContain(
      '_dmarc\t3600\tIN\tTXT\t"v=DMARC1; p=quarantine; rua=mailto:postmaster@mail.test"\n',
    );
    expect(content).toContain('autoconfig\t3600\tIN\tCNAME\tmx.mail.test.\n');
    const recs = (await call('GET', 'dns/system-records?zone=mail.test')).json<SysRec[]>();
    expect(recs.every((r) => r.published && r.state === 'served')).toBe(true);
    // Not stored as records: the zone still counts none of its own.
    expect((await call('GET', 'dns/records/mail.test')).json()).toEqual([]);
  });

  it("lets the administrator's own records take precedence", async () => {
    const own = await call('POST', 'dns/zones/mail.test/records', {
      qname: 'autoconfig',
      rtype: 'A',
      value: '192.0.2.80',
    });
    expect(own.statusCode, own.body).toBe(200);
    const spf = await call('POST', 'dns/zones/mail.test/records', {
      qname: '@',
      rtype: 'TXT',
      value: 'v=spf1 ip4:192.0.2.0/24 -all',
    });
    expect(spf.statusCode).toBe(200);
    const { content } = await zoneFile();
    expect(content).not.toContain('autoconfig\t3600\tIN\tCNAME');
    expect(content).not.toContain('"v=spf1 mx -all"');
    expect(content).toContain('autodiscover\t3600\tIN\tCNAME\tmx.mail.test.\n');
    const recs = (await call('GET', 'dns/system-records?zone=mail.test')).json<SysRec[]>();
    const autoconfig = recs.find((r) => r.qname === 'autoconfig');
    expect(autoconfig?.published).toBe(false);
    expect(autoconfig?.state).toBe('overridden');
    expect(autoconfig?.explanation).toContain('your own record at this name takes precedence');
  });

  it('says why a secondary zone here does not serve them: its primary servers publish the zone', async () => {
    const add = await call('POST', 'dns/zones/add', {
      ...zoneForm('nozone.test'),
      zoneType: 'secondary',
      primaries: ['192.0.2.7'],
    });
    expect(add.statusCode, add.body).toBe(200);
    const recs = (await call('GET', 'dns/system-records?zone=nozone.test')).json<SysRec[]>();
    expect(recs.map((r) => `${r.qname || '@'} ${r.rtype}`)).toEqual([
      '@ MX',
      'autoconfig CNAME',
      'autodiscover CNAME',
    ]);
    for (const r of recs) {
      expect(r).toMatchObject({ published: false, state: 'no-zone' });
      expect(r.explanation).toContain(
        'Not served: nozone.test is a secondary zone here; its primary servers publish its records.',
      );
    }
  });

  it('re-renders on apply and moves the serial only for zones whose text changed', async () => {
    const first = await zoneFile();
    expect((await call('POST', 'dns/apply')).statusCode).toBe(200);
    expect((await zoneFile()).serial).toBe(first.serial);
    facts[0] = { ...(facts[0] as MailDnsFacts), mx: [{ priority: 20, host: 'mx2.mail.test' }] };
    const applied = await call('POST', 'dns/apply');
    expect(applied.statusCode, applied.body).toBe(200);
    const after = await zoneFile();
    expect(after.serial).toBe(first.serial + 1);
    expect(after.content).toContain('@\t3600\tIN\tMX\t20 mx2.mail.test.\n');
  });

  it('marks MX and autoconfig targets that are not public host names with a warning (issue 22 item 16)', async () => {
    facts.push(
      {
        domain: 'public.example.org',
        mx: [{ priority: 10, host: 'mx.example.org' }],
        mailHost: 'mx.example.org',
        spf: false,
        dmarc: false,
        dkim: null,
      },
      {
        domain: 'lan.example.org',
        mx: [{ priority: 10, host: 'mailhost' }],
        mailHost: 'mail.corp.internal',
        spf: false,
        dmarc: false,
        dkim: null,
      },
    );
    const pub = (await call('GET', 'dns/system-records?zone=public.example.org')).json<SysRec[]>();
    expect(pub.map((r) => r.warning)).toEqual([undefined, undefined, undefined]);
    const lan = (await call('GET', 'dns/system-records?zone=lan.example.org')).json<SysRec[]>();
    expect(lan.map((r) => [r.rtype, r.qname, r.warning])).toEqual([
      [
        'MX',
        '',
        'MX target mailhost is not a public host name (it has no dot: not a fully qualified domain name): other servers and clients cannot reach it.',
      ],
      [
        'CNAME',
        'autoconfig',
        'Autoconfig target mail.corp.internal is not a public host name (.internal names are not resolvable on the public Internet): other servers and clients cannot reach it.',
      ],
      [
        'CNAME',
        'autodiscover',
        'Autodiscover target mail.corp.internal is not a public host name (.internal names are not resolvable on the public Internet): other servers and clients cannot reach it.',
      ],
    ]);
  });
});
