import type { WebServiceStatus, WebStats } from '@mailroom/contract/web';
import { SimpleGrid } from '@mantine/core';
import { IconApps, IconCertificate, IconClock, IconServer } from '@tabler/icons-react';
import { StatCard } from '../../../components/stat-card.tsx';
import { formatWebNumber, formatWebUptime } from '../web-format.ts';

/** What the Server Uptime card says under Apache's uptime (the spec's fixed '99.9% availability' made real). */
export function uptimeCaption(webServer: WebServiceStatus | undefined): string {
  if (!webServer) return 'Apache';
  // Why it is not running, and how to start it, is under Server Status.
  if (webServer.state !== 'running') return 'Apache is not running (see Server Status)';
  return webServer.since ? `Apache, up since ${new Date(webServer.since).toLocaleString()}` : 'Apache';
}

/** The four summary cards of the web dashboard (spec 3 §2.1). */
export function WebStatCards({
  stats,
  webServer,
}: {
  stats: WebStats;
  webServer: WebServiceStatus | undefined;
}) {
  return (
    <SimpleGrid cols={{ base: 1, xs: 2, md: 4 }}>
      <StatCard
        title="Virtual Hosts"
        value={formatWebNumber(stats.totalVirtualHosts)}
        caption={`${formatWebNumber(stats.activeVirtualHosts)} active`}
        icon={<IconServer size={24} />}
      />
      <StatCard
        title="Web Applications"
        value={formatWebNumber(stats.totalWebApplications)}
        caption={`${formatWebNumber(stats.activeWebApplications)} active`}
        icon={<IconApps size={24} />}
        color="violet"
      />
      <StatCard
        title="SSL Domains"
        value={formatWebNumber(stats.sslEnabledDomains)}
        caption={`of ${formatWebNumber(stats.totalDomains)} total`}
        icon={<IconCertificate size={24} />}
        color="green"
      />
      <StatCard
        title="Server Uptime"
        value={stats.uptime === null ? '—' : formatWebUptime(stats.uptime)}
        caption={uptimeCaption(webServer)}
        icon={<IconClock size={24} />}
        color={stats.uptime === null ? 'red' : 'teal'}
      />
    </SimpleGrid>
  );
}
