import { DAEMON_PENDING_LABELS, DAEMON_STATE_LABELS } from '@mailroom/contract/daemons';
import type { DnsDashboard } from '@mailroom/contract/dns';
import { SimpleGrid } from '@mantine/core';
import { IconCertificate, IconList, IconServer, IconWorld } from '@tabler/icons-react';
import { StatCard } from '../../../components/stat-card.tsx';

function capitalise(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}

/**
 * The DNS Server caption: the spec's words when named answers or Mailroom's own named is down; when
 * Mailroom does not run named (or it is not installed) it says so and why, not "Service disruption".
 */
export function nameServerCaption(data: Pick<DnsDashboard, 'serverStatus' | 'nameServer'>): string {
  if (data.serverStatus === 'online') return 'All systems operational';
  const ns = data.nameServer;
  if (ns.state === 'unmanaged' || ns.state === 'not-installed') {
    return `${DAEMON_STATE_LABELS[ns.state]}: ${ns.detail}`;
  }
  // Not running on purpose (restarting, stopped for a restore): said as such, not as a disruption.
  if (ns.pending) return `${DAEMON_PENDING_LABELS[ns.pending]}: ${ns.detail}`;
  return 'Service disruption';
}

/** The four dashboard cards, from the server's aggregate; '—' when a count is unknown. */
export function DnsStatCards({ data }: { data: DnsDashboard }) {
  const online = data.serverStatus === 'online';
  return (
    <SimpleGrid cols={{ base: 1, xs: 2, lg: 4 }} spacing="md" mb="lg">
      <StatCard
        title="DNS Zones"
        value={data.totalZones}
        caption="Active domains"
        icon={<IconWorld size={24} />}
      />
      <StatCard
        title="DNS Records"
        value={data.totalRecords}
        caption="All record types"
        icon={<IconList size={24} />}
        color="grape"
      />
      <StatCard
        title="DNS Server"
        value={capitalise(data.serverStatus)}
        caption={nameServerCaption(data)}
        icon={<IconServer size={24} />}
        color={online ? 'green' : 'red'}
      />
      <StatCard
        title="SSL Certificates"
        value={data.sslCertificates ?? '—'}
        caption="Active certificates"
        icon={<IconCertificate size={24} />}
        color="teal"
      />
    </SimpleGrid>
  );
}
