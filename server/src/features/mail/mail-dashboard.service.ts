import type { MailDashboard, MailFilterStatus, MailLogs } from '@mailroom/contract/mail';
import { mailMessages, TOP_USAGE_COUNT } from '@mailroom/contract/mail';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { Host } from '../../host/host.ts';
import type { DaemonState } from '../../host/service-control.ts';
import { tailFile } from '../../host/tail-file.ts';
import { counterSums } from './domains/mail-domain.repository.ts';
import { MAIL_PATHS } from './stack/mail-paths.layout.ts';
import { mailboxesWithQuota, topQuotaUsage } from './mailboxes/mailbox.repository.ts';

type Db = Kysely<Database>;

/** The mail stack's daemons on the dashboard (BIND is the DNS area's). */
const MAIL_DAEMONS = ['postfix', 'dovecot', 'rspamd'] as const;

/**
 * Each mail daemon's state, from the instance that uses Mailroom's files (the supervisor's own
 * child, or the process in the pid file those files name), never "any postfix on the host".
 */
export function mailDaemons(all: DaemonState[]): MailDashboard['daemons'] {
  return MAIL_DAEMONS.flatMap((n) => all.filter((d) => d.name === n));
}

export function mailServices(daemons: MailDashboard['daemons']): MailDashboard['services'] {
  const running = (n: string) => daemons.some((d) => d.name === n && d.state === 'running');
  return [
    { name: 'postfix', running: running('postfix') },
    { name: 'dovecot', running: running('dovecot') },
  ];
}

/**
 * `states`: every daemon's state (the supervisor's or the pid files'). `filter`: the mail filter's
 * state (stack/mail-filter.service.ts); rspamd is listed when it is wanted, and the server is online only when it
 * runs too (Postfix defers mail while a wanted filter is down).
 */
export async function mailDashboard(
  db: Db,
  states: () => Promise<DaemonState[]>,
  filter?: () => Promise<Pick<MailFilterStatus, 'state'>>,
): Promise<MailDashboard> {
  const [totals, active, top, all, filterNow] = await Promise.all([
    counterSums(db),
    mailboxesWithQuota(db),
    topQuotaUsage(db, TOP_USAGE_COUNT),
    states(),
    filter?.(),
  ]);
  const daemons = mailDaemons(all);
  const services = mailServices(daemons);
  if (filterNow && filterNow.state !== 'off')
    services.push({ name: 'rspamd', running: filterNow.state === 'running' });
  return {
    totalMailboxes: totals.mailboxes,
    activeMailboxes: active,
    totalAliases: totals.aliases,
    serverStatus: services.every((s) => s.running) ? 'online' : 'offline',
    services,
    daemons,
    topUsage: top.map((r) => {
      const quota = Number(r.quota);
      const used = Number(r.used);
      return { email: r.email, quota, used, percent: quota > 0 ? Math.round((used / quota) * 100) : 0 };
    }),
  };
}

/** The mail log under the host root, else the systemd journal of postfix and dovecot. */
export async function mailLogs(host: Host, lines: number): Promise<MailLogs> {
  const file = host.path(MAIL_PATHS.mailLog);
  const fromFile = await tailFile(file, lines);
  if (fromFile && fromFile.length) return { source: file, lines: fromFile, message: null };
  const journalctl = await host.which('journalctl');
  if (journalctl) {
    const r = await host.run(
      journalctl,
      ['--no-pager', '-q', '-o', 'short-iso', '-n', String(lines), '-u', 'postfix*', '-u', 'dovecot*'],
      { timeoutMs: 10_000 },
    );
    const out = r.stdout.split('\n').filter((l) => l.trim() && !l.startsWith('-- '));
    if (r.code === 0 && out.length) return { source: 'journalctl', lines: out.slice(-lines), message: null };
  }
  if (fromFile) return { source: file, lines: [], message: null };
  return { source: null, lines: [], message: mailMessages.noLogs };
}
