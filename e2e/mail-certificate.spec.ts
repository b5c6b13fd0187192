import { apiClient as api } from './api-client.ts';
import { makeChain } from '../server/test/ssl-certs.ts';
import { axeCheck, expect, shot, signIn, test } from './fixtures.ts';

interface MailCertState {
  certificateId: number | null;
  servedId: number | null;
  hostname: string;
}

interface Cert {
  id: number;
  domain: string;
  fingerprint: string;
}

const shortFp = (fp: string) => fp.split(':').slice(0, 8).join(':').toUpperCase();

test.describe('Mail Settings certificate', () => {
  test('shows the served certificate, picks another one, switches back to automatic', async ({
    page,
    request,
  }) => {
    const key = await signIn(page);
    const a = api(request, key);
    const before = await a.get<MailCertState>('ssl/mail-certificate');
    const host = before.hostname;

    await page.goto('/mail/settings');
    const card = page.getByRole('region', { name: 'Certificate' });
    await expect(card).toContainText(`serve for ${host}`);
    if (before.servedId === null) {
      // Nothing covers the host yet: the card says so and links to the certificates.
      await expect(card.getByText('No certificate covers this host name')).toBeVisible();
      await expect(card.getByRole('link', { name: `Add a certificate for ${host}` })).toHaveAttribute(
        'href',
        '/ssl/certificates',
      );
    }

    // Two certificates for the mail host: automatic serves the one that expires last.
    const upload = async (toDays: number) => {
      const { inter, leaf } = await makeChain([host], { toDays });
      return a.post<Cert>('ssl/certificates/upload', {
        domain: host,
        certificateType: 'DV',
        certificate: leaf.pem,
        privateKey: leaf.keyPem,
        certificateChain: inter.pem,
        keySize: 2048,
      });
    };
    const early = await upload(90);
    const late = await upload(400);

    await page.reload();
    const served = card.getByTestId('served-certificate');
    await expect(served).toContainText(`Served now: ${host}`);
    await expect(served).toContainText(shortFp(late.fingerprint));
    await expect(served).toContainText('automatic');
    await axeCheck(page, 'mail settings certificate');
    await shot(page, 'mail-certificate');

    // Pick the one that expires first.
    const picker = card.getByRole('textbox', { name: 'Certificate' });
    await picker.click();
    await page.getByRole('option', { name: new RegExp(shortFp(early.fingerprint)) }).click();
    await card.getByRole('button', { name: 'Save Certificate' }).click();
    await expect(card.getByRole('status')).toContainText('Mail server certificate saved and applied.', {
      timeout: 30_000,
    });
    await expect(served).toContainText(shortFp(early.fingerprint));
    await expect(served).toContainText('chosen');
    // The mail server took it live: no "Saved, but not live" alert.
    await expect(page.getByText('Saved, but not live on the mail server')).toBeHidden();
    expect(await a.get<MailCertState>('ssl/mail-certificate')).toMatchObject({
      certificateId: early.id,
      servedId: early.id,
    });
    await axeCheck(page, 'mail settings certificate chosen');
    await page.emulateMedia({ colorScheme: 'dark' });
    await axeCheck(page, 'mail settings certificate (dark)');
    await shot(page, 'mail-certificate-dark');
    await page.emulateMedia({ colorScheme: 'light' });
    await page.setViewportSize({ width: 390, height: 844 });
    await shot(page, 'mail-certificate-phone');
    await page.setViewportSize({ width: 1280, height: 900 });

    // Back to automatic.
    await picker.click();
    await page.getByRole('option', { name: 'Automatic (the hosted name’s certificate)' }).click();
    await card.getByRole('button', { name: 'Save Certificate' }).click();
    await expect(card.getByRole('status')).toContainText('Mail server certificate saved and applied.', {
      timeout: 30_000,
    });
    await expect(served).toContainText(shortFp(late.fingerprint));
    await expect(served).toContainText('automatic');
    expect(await a.get<MailCertState>('ssl/mail-certificate')).toMatchObject({
      certificateId: null,
      servedId: late.id,
    });
  });
});
