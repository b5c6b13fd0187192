import { readFileSync } from 'node:fs';
import type { APIRequestContext, Locator, Page } from '@playwright/test';
import { apiClient } from './api-client.ts';
import { axeCheck, expect, MOBILE, shot, signIn, test } from './fixtures.ts';

interface ZoneAnswer {
  domain: string;
  records: number;
  status: string;
  soa: { primary: string; email: string; serial: number; refresh: number; minimum: number };
}
interface RecordAnswer {
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
interface SettingsAnswer extends Record<string, unknown> {
  version: number;
  primaryNameserver: string;
  maxCacheSize: number;
}

/** The shared API client, with the zones and records this spec arranges and reads. */
function api(request: APIRequestContext, key: string) {
  const c = apiClient(request, key);
  return {
    ...c,
    zone: (domain: string) => c.addZone<ZoneAnswer>(domain),
    /** Records of one zone, or of every zone. */
    records: (zone?: string) => c.get<RecordAnswer[]>(`dns/records?limit=1000${zone ? `&zone=${zone}` : ''}`),
  };
}
type Api = ReturnType<typeof api>;

async function confirmDialog(page: Page, title: string, button: string): Promise<void> {
  const dialog = page.getByRole('dialog').filter({ hasText: title });
  await expect(dialog).toBeVisible();
  await dialog.getByRole('button', { name: button, exact: true }).click();
  await expect(dialog).toBeHidden();
}

/** Picks an option of a Mantine select (searchable or not). */
async function choose(
  scope: Locator | Page,
  page: Page,
  label: string,
  option: string,
  type?: string,
): Promise<void> {
  const input = scope.getByRole('textbox', { name: label, exact: true });
  const choice = page.getByRole('option', { name: option, exact: true });
  await input.click();
  if (type !== undefined) await input.fill(type);
  // The focus opens the list and the click toggles it: on a loaded machine the two can land in
  // separate renders and leave it closed (seen twice in a row after another select was chosen).
  await expect(async () => {
    if (!(await choice.isVisible())) await input.click();
    await expect(choice).toBeVisible({ timeout: 1_000 });
  }).toPass({ timeout: 15_000 });
  await choice.click();
}

async function expectCrumbs(page: Page, ...labels: string[]): Promise<void> {
  const crumbs = page.getByLabel('Breadcrumb');
  for (const l of labels) await expect(crumbs).toContainText(l);
  await expect(crumbs.getByRole('link', { name: 'Dashboard' })).toHaveAttribute('href', '/dashboard');
}

async function pageChecks(page: Page, name: string): Promise<void> {
  await axeCheck(page, name);
  await shot(page, name);
  await page.setViewportSize(MOBILE);
  await shot(page, `${name}-mobile`);
  await page.setViewportSize({ width: 1280, height: 800 });
}

function recordOf(records: RecordAnswer[], qname: string, rtype: string): RecordAnswer | undefined {
  return records.find((r) => r.qname === qname && r.rtype === rtype);
}

test.describe('DNS screens', () => {
  // Each test walks a whole screen (17–40 s alone); two workers on two cores can double that.
  test.describe.configure({ timeout: 150_000 });
  let a: Api;
  test.beforeEach(async ({ page, request }) => {
    a = api(request, await signIn(page));
  });

  test('zones: create with the §9 defaults, view, zone file, edit, search, delete', async ({ page }) => {
    const domain = 'e2e-zone.test';
    const settings = await a.get<SettingsAnswer>('dns/settings');

    await page.goto('/dns/zones');
    await expectCrumbs(page, 'Dashboard', 'DNS Management', 'Zone Management');
    await page.getByLabel('Search zones').fill('no-such-zone-anywhere');
    await expect(page.getByText('No zones found matching "no-such-zone-anywhere"')).toBeVisible();
    await page.getByLabel('Search zones').fill('');

    await page.getByRole('button', { name: 'Add DNS Zone' }).click();
    const form = page.locator('section', { has: page.getByRole('heading', { name: 'Add DNS Zone' }) });
    await expect(form.getByLabel('Serial Number')).toHaveValue('1');
    await expect(form.getByLabel('Refresh Interval')).toHaveValue('3600');
    await expect(form.getByLabel('Retry Interval')).toHaveValue('1800');
    await expect(form.getByLabel('Expire Time')).toHaveValue('604800');
    await expect(form.getByRole('textbox', { name: 'Zone Type' })).toHaveValue('Primary');

    // §5: messages after a touch; the submit button stays disabled while the form is invalid.
    await form.getByLabel('Domain Name').fill('not a domain');
    await expect(form.getByText('Please enter a valid domain name')).toBeVisible();
    await expect(form.getByRole('button', { name: 'Create Zone' })).toBeDisabled();

    // The name server and contact follow the domain typed.
    await form.getByLabel('Domain Name').fill(domain);
    await expect(form.getByLabel('Primary Nameserver')).toHaveValue(settings.primaryNameserver);
    await expect(form.getByLabel('Admin Email')).toHaveValue(`admin@${domain}`);

    // A name server inside the zone needs its address.
    await form.getByLabel('Primary Nameserver').fill(`ns1.${domain}`);
    await expect(
      form.getByText('The name server lies inside this zone, so the zone needs its address'),
    ).toBeVisible();
    await expect(form.getByRole('button', { name: 'Create Zone' })).toBeDisabled();
    await form.getByLabel('Nameserver Address').fill('999.1.1.1');
    await expect(form.getByText('Nameserver Address must be an IPv4 or IPv6 address')).toBeVisible();
    await form.getByLabel('Nameserver Address').fill('192.0.2.53');
    await form.getByLabel('Refresh Interval').fill('');
    await expect(form.getByText('Refresh Interval is required')).toBeVisible();
    await form.getByLabel('Refresh Interval').fill('3600');
    await shot(page, 'dns-zones-create-form');
    await form.getByRole('button', { name: 'Create Zone' }).click();
    await expect(form).toBeHidden();

    const row = page.getByRole('row').filter({ hasText: domain });
    await expect(row).toContainText('Primary');
    await expect(row).toContainText('active');
    await expect(row).toContainText('Just now');
    const created = await a.get<ZoneAnswer>(`dns/zones/${domain}`);
    expect(created.soa).toMatchObject({
      primary: `ns1.${domain}`,
      email: `admin@${domain}`,
      refresh: 3600,
      minimum: 300,
    });
    // The glue record for the in-zone name server was added with the zone.
    expect(recordOf(await a.records(domain), 'ns1', 'A')?.value).toBe('192.0.2.53');
    for (const col of ['Domain', 'Type', 'Records', 'Status', 'Last Updated', 'Actions']) {
      await expect(page.getByRole('columnheader', { name: col, exact: true })).toBeVisible();
    }
    await expect(page.getByRole('heading', { name: /^DNS Zones \(\d+\)$/ })).toBeVisible();

    // A duplicate is refused with the server's words.
    await page.getByRole('button', { name: 'Add DNS Zone' }).click();
    await form.getByLabel('Domain Name').fill(domain);
    await form.getByRole('button', { name: 'Create Zone' }).click();
    await expect(form.getByText(`Zone ${domain} already exists`)).toBeVisible();
    await form.getByRole('button', { name: 'Cancel' }).click();

    // Details with the SOA block, and the rendered zone file.
    await row.getByRole('button', { name: `View ${domain}` }).click();
    const details = page.getByRole('dialog', { name: `Zone Details: ${domain}` });
    await expect(details).toContainText(`ns1.${domain}`);
    await expect(details).toContainText(`admin@${domain}`);
    await expect(details).toContainText(String(created.soa.serial));
    await expect(details).toContainText('3,600 seconds');
    await shot(page, 'dns-zone-details');
    await details.getByRole('button', { name: 'View Zone File' }).click();
    const file = page.getByRole('dialog', { name: `Zone File: ${domain}` });
    await expect(file.getByTestId('zone-file-content')).toContainText(`$ORIGIN ${domain}.`);
    await expect(file.getByTestId('zone-file-content')).toContainText('SOA');
    await expect(file.getByTestId('zone-file-content')).toContainText('192.0.2.53');
    await shot(page, 'dns-zone-file');
    await file.getByRole('button', { name: 'Close zone file' }).click();
    await expect(file).toBeHidden();

    // Edit works: the SOA refresh changes and the serial goes up.
    await details.getByRole('button', { name: 'Edit Zone' }).click();
    const edit = page.getByRole('dialog', { name: `Edit Zone: ${domain}` });
    await expect(edit.getByLabel('Domain Name')).toBeDisabled();
    await edit.getByLabel('Refresh Interval').fill('7200');
    await edit.getByRole('button', { name: 'Save Changes' }).click();
    await expect(edit).toBeHidden();
    await expect(page.getByText('Zone updated').first()).toBeVisible();
    const edited = await a.get<ZoneAnswer>(`dns/zones/${domain}`);
    expect(edited.soa.refresh).toBe(7200);
    expect(edited.soa.serial).toBeGreaterThan(created.soa.serial);
    const zoneFile = await a.get<{ content: string }>(`dns/zones/${domain}/zonefile`);
    expect(zoneFile.content).toContain('7200');

    // /dns/zones/{domain} opens that zone.
    await page.goto(`/dns/zones/${domain}`);
    await expect(page.getByRole('dialog', { name: `Zone Details: ${domain}` })).toContainText(
      '7,200 seconds',
    );
    await expect(page.getByLabel('Search zones')).toHaveValue(domain);
    await page.getByRole('dialog').getByRole('button', { name: 'Close', exact: true }).click();
    await expect(page).toHaveURL(/\/dns\/zones$/);

    // Delete: an empty zone needs one confirmation; a zone with records a second, explicit one.
    const empty = 'e2e-empty.test';
    await a.zone(empty);
    await page.reload();
    await page.getByRole('button', { name: `Delete ${empty}` }).click();
    await confirmDialog(page, 'Delete DNS Zone', 'Delete');
    await expect(page.getByRole('row').filter({ hasText: empty })).toHaveCount(0);
    expect(await a.status(`dns/zones/${empty}`)).toBe(404);

    await page.getByRole('button', { name: `Delete ${domain}` }).click();
    await confirmDialog(page, 'Delete DNS Zone', 'Delete');
    await expect(page.getByRole('dialog').filter({ hasText: 'Zone still has records' })).toContainText(
      `Zone ${domain} still has 1 record; confirm to remove the zone and its records`,
    );
    await confirmDialog(page, 'Zone still has records', 'Cancel');
    expect(await a.status(`dns/zones/${domain}`)).toBe(200);
    await page.getByRole('button', { name: `Delete ${domain}` }).click();
    await confirmDialog(page, 'Delete DNS Zone', 'Delete');
    await confirmDialog(page, 'Zone still has records', 'Delete zone and records');
    await expect(page.getByRole('row').filter({ hasText: domain })).toHaveCount(0);
    expect(await a.status(`dns/zones/${domain}`)).toBe(404);
  });

  test('records: create A, MX and SRV, validation, edit, delete, filters and Clear Filters', async ({
    page,
  }) => {
    const zone = 'e2e-rec.test';
    await a.zone(zone);
    await page.goto('/dns/records');
    await expectCrumbs(page, 'Dashboard', 'DNS Management', 'Record Management');

    await page.getByRole('button', { name: 'Add DNS Record' }).click();
    const form = page.locator('section', { has: page.getByRole('heading', { name: 'Add DNS Record' }) });
    await expect(form.getByLabel('TTL')).toHaveValue('3600');
    await expect(form.getByRole('textbox', { name: 'Record Type' })).toHaveValue('A');
    await expect(form.getByLabel('Priority')).toHaveCount(0);
    await choose(form, page, 'Zone', zone, 'e2e-rec');
    await form.getByLabel('Name').fill('www');
    await form.getByLabel('Value').fill('300.1.2.3');
    await expect(form.getByText('Value must be a valid IPv4 address')).toBeVisible();
    await expect(form.getByRole('button', { name: 'Add Record' })).toBeDisabled();
    await form.getByLabel('Value').fill('192.0.2.10');
    await form.getByRole('button', { name: 'Add Record' }).click();
    await expect(form).toBeHidden();
    const wwwRow = page.getByRole('row').filter({ hasText: '192.0.2.10' });
    await expect(wwwRow).toContainText('www');
    await expect(wwwRow.getByRole('button', { name: /^Copy value of A www/ })).toBeVisible();

    // MX: priority appears with its default 10 and is sent.
    await page.getByRole('button', { name: 'Add DNS Record' }).click();
    await choose(form, page, 'Zone', zone, 'e2e-rec');
    await choose(form, page, 'Record Type', 'MX');
    await expect(form.getByLabel('Priority')).toHaveValue('10');
    await expect(form.getByLabel('Weight')).toHaveCount(0);
    await form.getByLabel('Name').fill('@');
    await form.getByLabel('Value').fill(`mail.${zone}`);
    await form.getByLabel('Priority').fill('5');
    await form.getByRole('button', { name: 'Add Record' }).click();
    await expect(form).toBeHidden();
    const mxRow = page.getByRole('row').filter({ hasText: `mail.${zone}` });
    // Cells: selection, zone, name, type, value, TTL, priority, actions.
    await expect(mxRow.getByRole('cell').nth(2)).toHaveText('@');
    await expect(mxRow.getByRole('cell').nth(6)).toHaveText('5');

    // SRV: priority, weight and port are bound and bounded.
    await page.getByRole('button', { name: 'Add DNS Record' }).click();
    await choose(form, page, 'Zone', zone, 'e2e-rec');
    await choose(form, page, 'Record Type', 'SRV');
    await form.getByLabel('Name').fill('_sip._tcp');
    await form.getByLabel('Value').fill(`sip.${zone}`);
    await form.getByLabel('Priority').fill('20');
    await form.getByLabel('Weight').fill('70000');
    await form.getByLabel('Port').fill('5060');
    await expect(form.getByText('Weight must be at most 65535')).toBeVisible();
    await form.getByLabel('Weight').fill('60');
    await shot(page, 'dns-records-create-srv');
    await form.getByRole('button', { name: 'Add Record' }).click();
    await expect(form).toBeHidden();
    await expect(page.getByRole('row').filter({ hasText: 'weight 60 · port 5060' })).toBeVisible();

    let records = await a.records(zone);
    expect(recordOf(records, 'www', 'A')).toMatchObject({ value: '192.0.2.10', ttl: 3600, priority: null });
    expect(recordOf(records, '', 'MX')).toMatchObject({ value: `mail.${zone}`, priority: 5 });
    expect(recordOf(records, '_sip._tcp', 'SRV')).toMatchObject({
      value: `sip.${zone}`,
      priority: 20,
      weight: 60,
      port: 5060,
    });

    // The server's own rules come back on the field: a CNAME cannot sit beside the A record.
    await page.getByRole('button', { name: 'Add DNS Record' }).click();
    await choose(form, page, 'Zone', zone, 'e2e-rec');
    await choose(form, page, 'Record Type', 'CNAME');
    await form.getByLabel('Name').fill('www');
    await form.getByLabel('Value').fill('elsewhere.example.net');
    await form.getByRole('button', { name: 'Add Record' }).click();
    await expect(form.getByText(/CNAME record cannot coexist/)).toBeVisible();
    await form.getByRole('button', { name: 'Cancel' }).click();

    // Edit.
    await page.getByRole('button', { name: `Edit A www in ${zone}` }).click();
    const edit = page.getByRole('dialog', { name: 'Edit DNS Record' });
    await expect(edit.getByRole('textbox', { name: 'Zone' })).toBeDisabled();
    await edit.getByLabel('Value').fill('192.0.2.20');
    await edit.getByLabel('TTL').fill('600');
    await edit.getByRole('button', { name: 'Save Changes' }).click();
    await expect(edit).toBeHidden();
    await expect(page.getByRole('row').filter({ hasText: '192.0.2.20' })).toBeVisible();
    records = await a.records(zone);
    expect(recordOf(records, 'www', 'A')).toMatchObject({ value: '192.0.2.20', ttl: 600 });
    const zoneFile = await a.get<{ content: string }>(`dns/zones/${zone}/zonefile`);
    expect(zoneFile.content).toMatch(/www\t600\tIN\tA\t192\.0\.2\.20/);
    expect(zoneFile.content).toMatch(/_sip\._tcp\t3600\tIN\tSRV\t20 60 5060 sip\.e2e-rec\.test\./);

    // Filters: by type, by zone, search, and Clear Filters.
    const total = (await a.records()).length;
    const heading = page.getByRole('heading', { name: /^DNS Records \(/ });
    await expect(heading).toHaveText(`DNS Records (${total})`);
    await choose(page, page, 'Filter by type', 'MX');
    await expect(heading).toHaveText(`DNS Records (1 of ${total})`);
    await expect(page.getByRole('row').filter({ hasText: `mail.${zone}` })).toBeVisible();
    await expect(page.getByRole('row').filter({ hasText: '192.0.2.20' })).toHaveCount(0);
    await choose(page, page, 'Filter by type', 'All types');
    await choose(page, page, 'Filter by zone', zone, 'e2e-rec');
    await expect(heading).toHaveText(`DNS Records (${records.length} of ${total})`);
    await page.getByLabel('Search records').fill('sip');
    await expect(heading).toHaveText(`DNS Records (1 of ${total})`);
    await page.getByLabel('Search records').fill('no-such-record-anywhere');
    await expect(page.getByText('No records found matching your criteria')).toBeVisible();
    await shot(page, 'dns-records-filtered-empty');
    await page.getByRole('button', { name: 'Clear Filters' }).click();
    await expect(heading).toHaveText(`DNS Records (${total})`);
    await expect(page.getByLabel('Search records')).toHaveValue('');
    await expect(page.getByRole('textbox', { name: 'Filter by zone' })).toHaveValue('All zones');

    // Delete.
    await page.getByRole('button', { name: `Delete A www in ${zone}` }).click();
    await confirmDialog(page, 'Delete DNS Record', 'Delete');
    await expect(page.getByRole('row').filter({ hasText: '192.0.2.20' })).toHaveCount(0);
    expect(recordOf(await a.records(zone), 'www', 'A')).toBeUndefined();
  });

  test('records: import with per-row results, export read back', async ({ page }) => {
    const zone = 'e2e-imp.test';
    await a.zone(zone);
    await page.goto('/dns/records');
    await page.getByRole('button', { name: 'Import Records' }).click();
    const panel = page.getByRole('region', { name: 'Import records' });
    await expect(panel).toContainText(
      'Upload a CSV file with columns: zone, name, type, value, ttl, priority',
    );
    await expect(panel.getByRole('button', { name: 'Import Records' })).toBeDisabled();
    const csv = [
      'zone,name,type,value,ttl,priority',
      `${zone},web,A,192.0.2.80,300,`,
      `${zone},@,MX,mx.${zone},3600,10`,
      `${zone},bad,A,not-an-address,300,`,
      `${zone},nottl,A,192.0.2.81,,`,
      '',
      `${zone},_xmpp._tcp,SRV,5 5222 xmpp.${zone},3600,0`,
      `${zone},note,TXT,=cmd|' /C calc'!A0,300,`,
    ].join('\n');
    await panel
      .locator('input[type="file"]')
      .setInputFiles({ name: 'records.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
    await expect(panel).toContainText('Selected file: records.csv');

    // A dry run reports and changes nothing.
    await panel.getByLabel('Check only (dry run)').check();
    await panel.getByRole('button', { name: 'Import Records' }).click();
    await expect(panel).toContainText('4 records would be imported, 2 skipped, 2 errors.');
    expect(await a.records(zone)).toHaveLength(0);

    await panel.getByLabel('Check only (dry run)').uncheck();
    await panel.getByRole('button', { name: 'Import Records' }).click();
    await expect(panel).toContainText('4 records imported, 2 skipped, 2 errors.');
    const errors = panel.getByRole('table', { name: 'Rows not imported' });
    await expect(
      errors.getByRole('row').filter({ hasText: 'Value must be a valid IPv4 address' }),
    ).toContainText('4');
    await expect(errors.getByRole('row').filter({ hasText: 'TTL is required' })).toContainText('5');
    await shot(page, 'dns-records-import-result');
    const imported = await a.records(zone);
    expect(imported).toHaveLength(4);
    expect(recordOf(imported, '_xmpp._tcp', 'SRV')).toMatchObject({
      priority: 0,
      weight: 5,
      port: 5222,
      value: `xmpp.${zone}`,
    });

    // Export: every record, the spec's columns, formula cells neutralised, and it imports back.
    const download = page.waitForEvent('download');
    const exported = page.waitForResponse(
      (r) => r.url().includes('records%2Fexport') || r.url().includes('records/export'),
    );
    await page.getByRole('button', { name: 'Export Records' }).click();
    const file = await download;
    expect((await exported).status()).toBe(200);
    expect(file.suggestedFilename()).toMatch(/^dns-records-\d{4}-\d{2}-\d{2}\.csv$/);
    const text = readFileSync(await file.path(), 'utf8');
    const lines = text.trim().split(/\r?\n/);
    expect(lines[0]).toBe('zone,qname,rtype,value,ttl,priority');
    expect(lines).toContain(`${zone},web,A,192.0.2.80,300,`);
    expect(lines).toContain(`${zone},${zone}.,MX,mx.${zone},3600,10`);
    expect(lines).toContain(`${zone},_xmpp._tcp,SRV,5 5222 xmpp.${zone},3600,0`);
    expect(lines).toContain(`${zone},note,TXT,'=cmd|' /C calc'!A0,300,`);
    expect(lines.length - 1).toBe((await a.records()).length);

    // The exported file imports back into an empty copy of the zone, apex and SRV included.
    const copy = 'e2e-imp-copy.test';
    await a.zone(copy);
    const again = text
      .split(/\r?\n/)
      .filter((l) => l.startsWith(`${zone},`) && !l.includes('TXT'))
      .map((l) => l.replaceAll(zone, copy))
      .join('\n');
    await panel
      .locator('input[type="file"]')
      .setInputFiles({ name: 'again.csv', mimeType: 'text/csv', buffer: Buffer.from(again) });
    await panel.getByRole('button', { name: 'Import Records' }).click();
    await expect(panel).toContainText('3 records imported, 0 skipped, 0 errors.');
    const copied = await a.records(copy);
    expect(recordOf(copied, '', 'MX')).toMatchObject({ value: `mx.${copy}`, priority: 10 });
    expect(recordOf(copied, '_xmpp._tcp', 'SRV')).toMatchObject({ weight: 5, port: 5222 });
  });

  test('settings: sections, validation, save, reset to defaults, stale save, status', async ({ page }) => {
    await page.goto('/dns/settings');
    await expectCrumbs(page, 'Dashboard', 'DNS Management', 'DNS Settings');
    for (const s of [
      'Server Configuration',
      'Nameserver Configuration',
      'Zone Configuration',
      'Security Settings',
      'Performance Settings',
      'Logging Settings',
    ]) {
      await expect(page.getByRole('heading', { name: s, exact: true }).first()).toBeVisible();
    }
    const form = page.getByRole('form', { name: 'DNS settings' });
    const status = page.getByRole('region', { name: 'Settings Status' });
    await expect(status).toContainText('Server Configuration');
    await expect(status).toContainText('Security Settings');
    await expect(status).toContainText('Performance Settings');

    await form.getByLabel('Server Port').fill('70000');
    await expect(form.getByText('Server Port must be at most 65535')).toBeVisible();
    await expect(form.getByRole('button', { name: 'Save Settings' })).toBeDisabled();
    await form.getByLabel('Server Port').fill('53');

    await form.getByLabel('Max Cache Size (MB)').fill('256');
    await form.getByText('Enable Query Logging', { exact: true }).click();
    await expect(form.getByLabel('Enable Query Logging')).toBeChecked();
    await form.getByRole('button', { name: 'Save Settings' }).click();
    await expect(page.getByText('DNS settings saved').first()).toBeVisible();
    let saved = await a.get<SettingsAnswer>('dns/settings');
    expect(saved).toMatchObject({ maxCacheSize: 256, enableQueryLogging: true });
    await expect(status).toContainText('Check passed');
    await expect(status).toContainText(/Last applied: (Just now|\dm ago)/);

    // Zone transfers go only to the listed secondary servers; the form explains an empty list.
    await expect(form.getByText('Left empty, zone transfers go to no one.')).toBeVisible();
    await form.getByRole('textbox', { name: 'Secondary Servers' }).fill('ns2.example.com');
    await expect(
      form.getByText('Secondary Servers must be IP addresses (ns2.example.com is not)'),
    ).toBeVisible();
    await form.getByRole('textbox', { name: 'Secondary Servers' }).fill('192.0.2.53, 2001:db8::53');
    await form.getByRole('button', { name: 'Save Settings' }).click();
    // The first save's message may still be showing: wait for this save to land.
    await expect
      .poll(async () => {
        saved = await a.get<SettingsAnswer>('dns/settings');
        return [saved.allowTransfer, saved.secondaryServers];
      })
      .toEqual([true, ['192.0.2.53', '2001:db8::53']]);

    // Reset to Defaults fills the §9 values; saving applies them.
    await form.getByRole('button', { name: 'Reset to Defaults' }).click();
    // It asks first, like Mail Settings (issue 12).
    const confirmReset = page
      .getByRole('dialog')
      .filter({ hasText: 'Are you sure you want to reset all settings to defaults?' });
    await confirmReset.getByRole('button', { name: 'Reset', exact: true }).click();
    await expect(confirmReset).toBeHidden();
    await expect(form.getByLabel('Max Cache Size (MB)')).toHaveValue('100');
    await expect(form.getByLabel('Enable Query Logging')).not.toBeChecked();
    await form.getByRole('button', { name: 'Save Settings' }).click();
    // The earlier save's message may still be showing: wait for this save to land.
    await expect
      .poll(async () => {
        saved = await a.get<SettingsAnswer>('dns/settings');
        return [saved.maxCacheSize, saved.enableQueryLogging];
      })
      .toEqual([100, false]);

    // Someone else saves meanwhile: this page's save is refused (409) and says so.
    const { version: _v, ...current } = saved;
    await a.post('dns/settings', { ...current, maxCacheSize: 300, version: saved.version });
    await form.getByLabel('Max Cache Size (MB)').fill('200');
    await form.getByRole('button', { name: 'Save Settings' }).click();
    const stale = page.getByRole('alert').filter({ hasText: 'Settings changed elsewhere' });
    await expect(stale).toBeVisible();
    await shot(page, 'dns-settings-stale');
    expect((await a.get<SettingsAnswer>('dns/settings')).maxCacheSize).toBe(300);
    await stale.getByRole('button', { name: 'Reload Settings' }).click();
    await expect(stale).toBeHidden();
    await expect(form.getByLabel('Max Cache Size (MB)')).toHaveValue('300');
  });

  test('dashboard: real counts, zones with Manage, quick actions, recent activity', async ({ page }) => {
    const zone = 'e2e-dash.test';
    await a.zone(zone);
    await a.post(`dns/zones/${zone}/records`, { qname: 'www', rtype: 'A', value: '192.0.2.7' });
    const dash = await a.get<{
      totalZones: number;
      totalRecords: number;
      serverStatus: string;
      nameServer: { state: string; detail: string };
      sslCertificates: number | null;
    }>('dns/dashboard');

    await page.goto('/dns');
    await expectCrumbs(page, 'Dashboard', 'DNS Management');
    const card = (title: string) => page.locator('.mantine-Card-root').filter({ hasText: title }).first();
    await expect(card('DNS Zones')).toContainText(String(dash.totalZones));
    await expect(card('DNS Zones')).toContainText('Active domains');
    await expect(card('DNS Records')).toContainText(String(dash.totalRecords));
    await expect(card('DNS Records')).toContainText('All record types');
    const server = dash.serverStatus === 'online' ? 'Online' : 'Offline';
    await expect(card('DNS Server')).toContainText(server);
    // Offline because Mailroom does not run named here (MAILROOM_RUN_DAEMONS=0): said plainly.
    const notRun = ['unmanaged', 'not-installed'].includes(dash.nameServer.state);
    await expect(card('DNS Server')).toContainText(
      dash.serverStatus === 'online'
        ? 'All systems operational'
        : notRun
          ? dash.nameServer.detail
          : 'Service disruption',
    );
    await expect(card('SSL Certificates')).toContainText(
      dash.sslCertificates === null ? '—' : String(dash.sslCertificates),
    );
    await expect(card('SSL Certificates')).toContainText('Active certificates');

    const activity = card('Recent DNS Activity');
    await expect(activity).toContainText('Zone created');
    await expect(activity).toContainText('Record added');
    await expect(activity).toContainText(zone);

    for (const [name, href] of [
      ['Manage Zones', '/dns/zones'],
      ['Manage Records', '/dns/records'],
      ['DNS Settings', '/dns/settings'],
      ['SSL Certificates', '/ssl'],
    ] as const) {
      await expect(page.getByRole('link', { name, exact: true })).toHaveAttribute('href', href);
    }
    await pageChecks(page, 'dns-dashboard');

    // Refresh Data reloads real numbers.
    await a.post(`dns/zones/${zone}/records`, { qname: 'api', rtype: 'A', value: '192.0.2.8' });
    await page.getByRole('button', { name: 'Refresh Data' }).click();
    await expect(card('DNS Records')).toContainText(String(dash.totalRecords + 1));

    await page.getByRole('link', { name: `Manage ${zone}` }).click();
    await expect(page).toHaveURL(new RegExp(`/dns/zones/${zone.replace('.', '\\.')}$`));
    await expect(page.getByRole('dialog', { name: `Zone Details: ${zone}` })).toContainText('Records');
  });

  test('every DNS page: accessibility and screenshots (desktop and 390 px)', async ({ page }) => {
    const zone = 'e2e-shots.test';
    await a.zone(zone);
    await a.post(`dns/zones/${zone}/records`, {
      qname: '',
      rtype: 'MX',
      value: `mail.${zone}`,
      priority: 10,
    });
    await a.post(`dns/zones/${zone}/records`, { qname: 'www', rtype: 'A', value: '192.0.2.9' });
    await a.post(`dns/zones/${zone}/records`, { qname: '', rtype: 'TXT', value: 'v=spf1 mx -all' });

    await page.goto('/dns/zones');
    await expect(page.getByRole('row').filter({ hasText: zone })).toBeVisible();
    await page.getByRole('button', { name: 'Add DNS Zone' }).click();
    await pageChecks(page, 'dns-zones');

    // The read-only system records are what the server derives from the mail domains.
    await a.post('mail/domains/add', { domain: zone });
    const system =
      await a.get<{ zone: string; qname: string; rtype: string; value: string }[]>('dns/system-records');
    await page.goto('/dns/records');
    await expect(page.getByRole('row').filter({ hasText: '192.0.2.9' })).toBeVisible();
    const systemSection = page.getByRole('region', { name: 'System records' });
    if (system.length === 0) {
      await expect(systemSection).toContainText('No records are derived from the mail settings yet.');
    } else {
      await expect(systemSection.getByRole('row')).toHaveCount(system.length + 1);
      // Several records may share a value (MX and autoconfig both point at the mail host).
      for (const r of system) {
        await expect(
          systemSection.getByRole('row').filter({ hasText: r.value }).filter({ hasText: r.rtype }).first(),
        ).toBeVisible();
      }
    }
    await page.getByRole('button', { name: 'Add DNS Record' }).click();
    await page.getByRole('button', { name: 'Import Records' }).click();
    await pageChecks(page, 'dns-records');

    await page.goto('/dns/settings');
    await expect(page.getByRole('form', { name: 'DNS settings' })).toBeVisible();
    await pageChecks(page, 'dns-settings');

    await page.emulateMedia({ colorScheme: 'dark' });
    await page.goto('/dns/records');
    await expect(page.getByRole('row').filter({ hasText: '192.0.2.9' })).toBeVisible();
    await axeCheck(page, 'dns-records (dark)');
    await shot(page, 'dns-records-dark');
    await page.emulateMedia({ colorScheme: 'light' });

    await page.goto(`/dns/zones/${zone}`);
    await expect(page.getByRole('dialog', { name: `Zone Details: ${zone}` })).toBeVisible();
    await axeCheck(page, 'zone details');
    await page.setViewportSize(MOBILE);
    await shot(page, 'dns-zone-details-mobile');
  });
});
