import { vhostLabels as L, type VirtualHost } from '@mailroom/contract/web';
import { Alert, Group, Modal, SimpleGrid, Stack, Text } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import type { ReactNode } from 'react';
import { formatLastModified, formatResponseTime, formatWebNumber } from '../web-format.ts';
import { SslBadge, VhostStatusBadge } from './vhost-status-badge.tsx';

const onOff = (v: boolean) => (v ? 'On' : 'Off');

function Item({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div style={{ minWidth: 0 }}>
      <Text size="xs" c="dimmed" fw={600}>
        {label}
      </Text>
      <Text size="sm" component="div" style={{ overflowWrap: 'anywhere' }}>
        {children}
      </Text>
    </div>
  );
}

/** The row's View: everything stored for the host, its figures and whether it is live. */
export function VhostDetailsModal({ vhost, onClose }: { vhost: VirtualHost | null; onClose: () => void }) {
  const phone = useMediaQuery('(max-width: 36em)');
  return (
    <Modal opened={vhost !== null} onClose={onClose} title={vhost?.domain ?? ''} size="lg" fullScreen={phone}>
      {vhost && (
        <Stack gap="md">
          <Group gap="xs">
            <VhostStatusBadge status={vhost.status} />
            <SslBadge enabled={vhost.sslEnabled} />
          </Group>
          {!vhost.live && (
            <Alert color="orange" variant="light" role="status">
              Saved, but not live: the last apply of the web server failed and the last good configuration is
              serving. See the outcome on Server Configuration.
            </Alert>
          )}
          <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm">
            <Item label={L.serverName}>{vhost.serverName}</Item>
            <Item label={L.serverAlias}>{vhost.serverAlias.join(', ') || '—'}</Item>
            <Item label={L.documentRoot}>{vhost.documentRoot}</Item>
            <Item label="Site User">{vhost.siteUser}</Item>
            <Item label="Listens on">
              {vhost.ipAddress}:{vhost.port}
              {vhost.sslEnabled && vhost.sslPort !== null
                ? `, ${vhost.ipAddress}:${vhost.sslPort} (SSL)`
                : ''}
            </Item>
            <Item label={L.redirectHttpToHttps}>{onOff(vhost.redirectHttpToHttps)}</Item>
            <Item label="Traffic (24 h)">{formatWebNumber(vhost.traffic)} requests</Item>
            <Item label="Response Time (24 h)">{formatResponseTime(vhost.responseTime)}</Item>
            <Item label="PHP">
              {vhost.enablePhp
                ? `${vhost.phpVersion}, ${vhost.phpMemoryLimit}, ${vhost.phpMaxExecutionTime} s, upload ${vhost.phpUploadMaxFilesize}, post ${vhost.phpPostMaxSize}`
                : 'Off'}
            </Item>
            <Item label="Performance">
              Gzip {onOff(vhost.enableGzip)} · Caching{' '}
              {vhost.enableCaching ? `${vhost.cacheExpiry} s` : 'Off'} · Rewrite {onOff(vhost.enableRewrite)}
            </Item>
            <Item label="Security">
              Headers {onOff(vhost.enableSecurityHeaders)} · Rate limit{' '}
              {vhost.enableRateLimiting ? `${vhost.rateLimitRequests} per ${vhost.rateLimitWindow} s` : 'Off'}
            </Item>
            <Item label="Access Control">
              {vhost.enableAccessControl
                ? `Allowed: ${vhost.allowedIps.join(', ') || 'everyone'}; blocked: ${vhost.blockedIps.join(', ') || 'none'}`
                : 'Off'}
            </Item>
            <Item label="Backup">
              {vhost.enableBackup ? `${vhost.backupFrequency}, ${vhost.backupRetention} kept` : 'Off'}
            </Item>
            <Item label="Last Modified">{formatLastModified(vhost.lastModified)}</Item>
          </SimpleGrid>
          {vhost.customDirectives && (
            <Item label={L.customDirectives}>
              <Text size="xs" ff="monospace" style={{ whiteSpace: 'pre-wrap' }}>
                {vhost.customDirectives}
              </Text>
            </Item>
          )}
        </Stack>
      )}
    </Modal>
  );
}
