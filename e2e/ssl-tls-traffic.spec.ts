import { appendFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { apiClient as api } from './api-client.ts';
import { axeCheck, expect, MOBILE, shot, signIn, test } from './fixtures.ts';

/**
 * Issue 19, Enable SSL Metrics: the TLS Traffic card on the SSL Certificates page shows the HTTPS
 * requests of Apache's access log (lines as Apache writes them with the tls field), per protocol and
 * cipher, over the SSL Metrics Interval; "SSL metrics are off" when disabled.
 */
test('TLS Traffic: figures per protocol and cipher from the access log, off when disabled', async ({
  page,
  request,
  server,
}) => {
  const a = api(request, await signIn(page));
  await page.goto('/ssl/certificates');
  const card = page
    .locator('.mantine-Card-root')
    .filter({ has: page.getByRole('heading', { name: 'TLS Traffic' }) });
  await expect(card.getByText('last 5 min, SSL Metrics Interval', { exact: false })).toBeVisible();
  await expect(card.getByText('No HTTPS requests in this window.').first()).toBeVisible();

  const log = path.join(server.dataDir, 'root/var/log/apache2/access.log');
  mkdirSync(path.dirname(log), { recursive: true });
  const now = Math.floor(Date.now() / 1000);
  const line = (tls: string) =>
    `127.0.0.1 - - [x] "GET / HTTP/2.0" 200 5 "-" "curl" tls:${tls} shop.example.com 127.0.0.1 ${now} 200 5 10\n`;
  appendFileSync(
    log,
    [
      line('TLSv1.3/TLS_AES_256_GCM_SHA384/1/Initial/1'),
      line('TLSv1.3/TLS_AES_256_GCM_SHA384/1/Initial/3'),
      line('TLSv1.3/TLS_AES_128_GCM_SHA256/1/Resumed/1'),
      line('TLSv1.2/ECDHE-RSA-AES256-GCM-SHA384/0/Initial/-'),
    ].join(''),
  );
  await page.reload();
  await expect(card.getByRole('cell', { name: 'TLS_AES_128_GCM_SHA256' }).first()).toBeVisible();
  await shot(page, 'ssl-tls-traffic');
  await page.setViewportSize(MOBILE);
  await expect(card.getByText('TLS_AES_256_GCM_SHA384').first()).toBeVisible();
  await shot(page, 'ssl-tls-traffic-mobile');
  await axeCheck(page);

  const cur = await a.get<{ settings: object; version: number }>('ssl/settings');
  await a.post('ssl/settings', {
    settings: { ...cur.settings, enableSslMetrics: false },
    version: cur.version,
  });
  await page.reload();
  await expect(card.getByText('SSL metrics are off', { exact: false })).toBeVisible();
});
