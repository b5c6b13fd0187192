import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dialects, startTestApp, type TestContext } from '../harness.ts';
import { zoneForm } from '../dns-zone-form.ts';

const ZONE = 'example.org';

async function zoneText(t: TestContext): Promise<{ serial: number; content: string }> {
  const res = await t.call({ method: 'GET', url: `/api/dns/zones/${ZONE}/zonefile` });
  expect(res.statusCode).toBe(200);
  return res.json();
}

// The mail area's facts reach the DNS zone of a mail domain: MX from the mail settings, SPF,
// DMARC and the DKIM key, re-rendered as the mail side changes.
describe.each(dialects())('mail records published in DNS on %s', (dialect) => {
  let t: TestContext;
  beforeAll(async () => {
    t = await startTestApp(dialect);
  });
  afterAll(async () => t.close());

  it('publishes MX, SPF, DMARC and DKIM of a mail domain into its zone and follows changes', async () => {
    const zone = await t.call({
      method: 'POST',
      url: '/api/dns/zones/add',
      payload: zoneForm(ZONE),
    });
    expect(zone.statusCode).toBe(200);
    expect((await zoneText(t)).content).not.toMatch(/\bMX\b/);

    const current = (await t.call({ method: 'GET', url: '/api/mail/settings' })).json();
    const save = await t.call({
      method: 'POST',
      url: '/api/mail/settings',
      payload: {
        version: current.version,
        settings: {
          ...current.settings,
          hostname: 'mx1.example.org',
          mxRecords: [{ priority: 10, host: 'mx1.example.org' }],
          enableDMARC: true,
        },
      },
    });
    expect(save.statusCode).toBe(200);

    const add = await t.call({
      method: 'POST',
      url: '/api/mail/users/add',
      payload: { createDomain: true, email: `ann@${ZONE}`, password: 'secret-pass-1', quota: 0 },
    });
    expect(add.statusCode).toBe(200);

    const before = await zoneText(t);
    expect(before.content).toMatch(/\sMX\s+10\s+mx1\.example\.org\./);
    expect(before.content).toContain('"v=spf1 mx -all"');
    expect(before.content).toMatch(/_dmarc\S*\s.*TXT\s+"v=DMARC1;/);

    // The DKIM key is made by a background job; its record follows when the key exists.
    let text = before.content;
    for (let i = 0; i < 120 && !/_domainkey/.test(text); i++) {
      await new Promise((r) => setTimeout(r, 250));
      text = (await zoneText(t)).content;
    }
    expect(text).toMatch(/_domainkey\S*\s.*TXT\s+\(?\s*"v=DKIM1; k=rsa; p=/);

    const system = await t.call({ method: 'GET', url: `/api/dns/system-records?zone=${ZONE}` });
    expect(system.statusCode).toBe(200);
    expect(JSON.stringify(system.json())).toContain('mx1.example.org');

    // A change of the MX list moves the zone, with a higher serial.
    const now = (await t.call({ method: 'GET', url: '/api/mail/settings' })).json();
    const again = await t.call({
      method: 'POST',
      url: '/api/mail/settings',
      payload: {
        version: now.version,
        settings: { ...now.settings, mxRecords: [{ priority: 20, host: 'mx2.example.org' }] },
      },
    });
    expect(again.statusCode).toBe(200);
    const after = await zoneText(t);
    expect(after.content).toMatch(/\sMX\s+20\s+mx2\.example\.org\./);
    expect(after.content).not.toMatch(/\sMX\s+\d+\s+mx1\.example\.org\./);
    expect(after.serial).toBeGreaterThan(before.serial);
  });
});
