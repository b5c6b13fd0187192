import { spawn } from 'node:child_process';
import { appendFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { axeCheck, expect, shot, signIn, test } from './fixtures.ts';

const MOBILE = { width: 390, height: 844 };

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/** Both trend charts drawn, with bars for the measured minutes (memory in use is never 0). */
async function expectCharts(page: Page) {
  await expect(page.getByTestId('chart-cpu').locator('svg.recharts-surface').first()).toBeVisible({
    timeout: 30_000,
  });
  await expect(page.getByTestId('chart-memory').locator('.recharts-bar-rectangle').first()).toBeVisible({
    timeout: 30_000,
  });
}

test.describe('system monitoring, live', () => {
  // Tables of every process and socket of a busy machine, axe-checked: slower than a form page.
  test.describe.configure({ timeout: 180_000 });
  test('gauges update from the live stream without a reload, charts render, axe', async ({ page }) => {
    await signIn(page);
    await page.goto('/system/monitoring');
    await expect(page.getByRole('heading', { level: 1, name: 'System Monitoring' })).toBeVisible();
    const updated = page.getByTestId('metrics-updated');
    await expect(updated).toBeVisible();
    const first = await updated.textContent();
    // A new sample arrives over /api/events within a few seconds (longer when the whole suite loads
    // both cores: the full run once missed it at 10 s); no navigation happens meanwhile.
    let navigations = 0;
    page.on('framenavigated', () => navigations++);
    await expect(updated).not.toHaveText(first ?? '', { timeout: 30_000 });
    expect(navigations).toBe(0);
    await expectCharts(page);
    await expect(page.getByRole('tab', { name: /Processes/ })).toBeVisible();
    await expect(page.getByText('Auto Refresh OFF')).toBeVisible();
    await axeCheck(page, '/system/monitoring');
    await shot(page, 'system-monitoring-desktop-light');
    for (const tab of ['Disk Usage', 'System Logs', 'Mail Queue']) {
      await page.getByRole('tab', { name: new RegExp(tab) }).click();
      await axeCheck(page, `/system/monitoring ${tab}`);
    }
    await page.getByRole('tab', { name: /Network Connections/ }).click();
    await shot(page, 'system-monitoring-connections');
  });

  test('kill a process: SIGTERM after a confirmation, and it is gone', async ({ page }) => {
    const child = spawn('sleep', ['301'], { stdio: 'ignore' });
    const pid = child.pid!;
    try {
      await signIn(page);
      await page.goto('/system/monitoring');
      await page.getByLabel('Search processes').fill(String(pid));
      const row = page
        .getByRole('table', { name: 'Processes' })
        .getByRole('row')
        .filter({ has: page.getByRole('button', { name: `Kill sleep (PID ${pid})` }) });
      await expect(row).toContainText('sleep 301');
      await row.getByRole('button', { name: `Kill sleep (PID ${pid})` }).click();
      const dialog = page.getByRole('dialog', { name: 'Kill process' });
      await expect(dialog).toContainText(`PID ${pid}`);
      await axeCheck(page, 'kill confirmation');
      await dialog.getByRole('button', { name: 'Kill' }).click();
      await expect(page.getByText('Process ended').first()).toBeVisible();
      await expect.poll(() => alive(pid) && child.exitCode === null).toBe(false);
      await expect(row).toHaveCount(0);
    } finally {
      if (alive(pid)) child.kill('SIGKILL');
    }
  });

  test('real-time monitoring: live log stream with pause, alerts, services, phone and dark', async ({
    page,
    server,
  }) => {
    const logDir = path.join(server.dataDir, 'root', 'var', 'log');
    mkdirSync(logDir, { recursive: true });
    const log = path.join(logDir, 'mail.log');
    appendFileSync(log, '');
    await signIn(page);
    await page.goto('/monitoring');
    await expect(page.getByRole('heading', { level: 1, name: 'Real-time Monitoring' })).toBeVisible();
    await expect(page.getByText(`· ${log}`)).toBeVisible();
    appendFileSync(log, 'Nov 22 10:00:01 mx postfix/smtpd[4242]: connect from e2e.example[192.0.2.7]\n');
    const stream = page.getByTestId('live-log');
    await expect(stream).toContainText('connect from e2e.example', { timeout: 10_000 });
    await page.getByRole('button', { name: 'Pause' }).click();
    appendFileSync(log, 'Nov 22 10:00:02 mx postfix/smtpd[4242]: paused line\n');
    await page.waitForTimeout(2500);
    await expect(stream).not.toContainText('paused line');
    await page.getByRole('button', { name: 'Resume' }).click();
    // Resume opens a new stream that follows the log from its end at that moment: a line written
    // before the server opened it is history, not news. Write until one arrives.
    await expect(async () => {
      appendFileSync(log, 'Nov 22 10:00:03 mx postfix/smtpd[4242]: after resume\n');
      await expect(stream).toContainText('after resume', { timeout: 2_000 });
    }).toPass({ timeout: 20_000 });
    await page.getByRole('button', { name: 'Clear' }).click();
    await expect(stream).not.toContainText('after resume');

    await expectCharts(page);
    await expect(page.getByRole('row', { name: /^Mailroom / })).toContainText('running');
    const updated = page.getByTestId('metrics-updated');
    const first = await updated.textContent();
    await expect(updated).not.toHaveText(first ?? '', { timeout: 10_000 });
    await axeCheck(page, '/monitoring');
    await shot(page, 'monitoring-desktop-light');
    await page.setViewportSize(MOBILE);
    await shot(page, 'monitoring-phone-light');
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.evaluate(() => localStorage.setItem('theme', 'dark'));
    await page.reload();
    await expect(page.getByRole('heading', { level: 1, name: 'Real-time Monitoring' })).toBeVisible();
    await axeCheck(page, '/monitoring dark');
    await shot(page, 'monitoring-phone-dark');
    await page.goto('/system/monitoring');
    await expectCharts(page);
    await axeCheck(page, '/system/monitoring dark');
    await shot(page, 'system-monitoring-phone-dark');
    await page.setViewportSize({ width: 1280, height: 900 });
    await shot(page, 'system-monitoring-desktop-dark');
  });
});
