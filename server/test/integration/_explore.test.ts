import { it } from 'vitest';
import { startTestApp } from '../harness.ts';
it('renders', async () => {
  const t = await startTestApp('sqlite', { env: { } });
  await new Promise((r) => setTimeout(r, 3000));
  const zone = await t.call({ method: 'POST', url: '/api/dns/zones/add', payload: { domain: 'ops-it.test', zoneType: 'primary', primaryNs: 'ns1.ops-it.test', nsAddress: '192.0.2.53', adminEmail: 'hostmaster@example.org', serial: 1, refresh: 3600, retry: 1800, expire: 604800 } });
  console.log(zone.statusCode, t.dataDir);
  await t.app.close();
}, 60000);
