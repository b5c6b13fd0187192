import { Gauge, type Registry } from 'prom-client';
import type { AppDeps } from '../../../app-deps.ts';
import type { MetricsCollector } from './metrics-collector.service.ts';
import { listQueue } from './mail-queue.service.ts';
import { countRecords, countZones } from '../../dns/dns.public.ts';
import { countMailRows } from '../../mail/mail.public.ts';

/**
 * Adds the console's figures to /metrics: the collector's host metrics (no extra reading of the
 * machine), the mail and DNS counts from the database, and the mail queue size (read at most
 * every 30 s, postqueue being a program run).
 */
export function registerHostGauges(registry: Registry, collector: MetricsCollector, deps: AppDeps): void {
  const stat = (name: string, help: string, read: () => number | undefined) =>
    new Gauge({
      name,
      help,
      registers: [registry],
      collect() {
        const v = read();
        if (v !== undefined) this.set(v);
      },
    });
  const s = () => collector.latest();
  stat('mailroom_host_cpu_usage_percent', 'CPU in use, percent of all cores', () => s()?.cpuUsage);
  stat(
    'mailroom_host_memory_usage_percent',
    'Memory in use (without caches), percent',
    () => s()?.memoryUsage,
  );
  stat(
    'mailroom_host_disk_usage_percent',
    'Use of the file system holding the data folder, percent',
    () => s()?.diskUsage,
  );
  stat(
    'mailroom_host_network_receive_bytes_per_second',
    'Bytes received per second (all interfaces but lo)',
    () => s()?.networkIn,
  );
  stat(
    'mailroom_host_network_transmit_bytes_per_second',
    'Bytes sent per second (all interfaces but lo)',
    () => s()?.networkOut,
  );
  stat('mailroom_host_load1', 'Load average over 1 minute', () => s()?.loadAverage[0]);
  stat('mailroom_host_load5', 'Load average over 5 minutes', () => s()?.loadAverage[1]);
  stat('mailroom_host_load15', 'Load average over 15 minutes', () => s()?.loadAverage[2]);
  stat('mailroom_host_tcp_established', 'Established TCP connections', () => s()?.activeConnections);
  stat('mailroom_host_processes', 'Processes on the machine', () => s()?.totalProcesses);
  stat('mailroom_host_uptime_seconds', 'Seconds since the machine booted', () => s()?.uptime);
  stat(
    'mailroom_services_running',
    'Services (of those Mailroom watches) running',
    () => s()?.runningServices,
  );
  stat('mailroom_services_total', 'Services Mailroom watches', () => s()?.totalServices);

  const db = deps.database.db;
  const count = (name: string, help: string, q: () => Promise<number>) =>
    new Gauge({
      name,
      help,
      registers: [registry],
      async collect() {
        try {
          this.set(await q());
        } catch {
          /* leave the last value */
        }
      },
    });
  count('mailroom_mail_domains', 'Mail domains', () => countMailRows(db, 'mail_domains'));
  count('mailroom_mailboxes', 'Mailboxes', () => countMailRows(db, 'mailboxes'));
  count('mailroom_mail_aliases', 'Mail aliases', () => countMailRows(db, 'mail_aliases'));
  count('mailroom_dns_zones', 'DNS zones', () => countZones(db));
  count('mailroom_dns_records', 'DNS records', () => countRecords(db));

  let queue: { at: number; n: number; deferred: number } | null = null;
  const readQueue = async () => {
    if (!queue || Date.now() - queue.at > 30_000) {
      const q = await listQueue(deps);
      queue = {
        at: Date.now(),
        n: q.messages.length,
        deferred: q.messages.filter((m) => m.queue === 'deferred').length,
      };
    }
    return queue;
  };
  count('mailroom_mail_queue_messages', 'Messages in the Postfix queue', async () => (await readQueue()).n);
  count(
    'mailroom_mail_queue_deferred',
    'Deferred messages in the Postfix queue',
    async () => (await readQueue()).deferred,
  );
}
