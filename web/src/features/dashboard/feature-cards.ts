import {
  IconActivity,
  IconApi,
  IconCertificate,
  IconDeviceDesktopAnalytics,
  IconMail,
  IconServer,
  IconShieldLock,
  IconStack2,
  IconWorld,
  type Icon,
} from '@tabler/icons-react';

export interface FeatureCard {
  title: string;
  description: string;
  to: string;
  icon: Icon;
  color: string;
}

/** Spec §2 /dashboard: the nine destinations. */
export const FEATURE_CARDS: readonly FeatureCard[] = [
  {
    title: 'Mail Management',
    description: 'Mailboxes, aliases and mail server settings',
    to: '/mail',
    icon: IconMail,
    color: 'blue',
  },
  {
    title: 'DNS Management',
    description: 'Zones and records served by the name server',
    to: '/dns',
    icon: IconWorld,
    color: 'teal',
  },
  {
    title: 'SSL Management',
    description: 'Certificates, generation and renewal',
    to: '/ssl',
    icon: IconCertificate,
    color: 'green',
  },
  {
    title: 'Web Management',
    description: 'Virtual hosts, applications and web server settings',
    to: '/web',
    icon: IconServer,
    color: 'indigo',
  },
  {
    title: 'MFA Management',
    description: 'Multi-factor authentication users, devices and recovery',
    to: '/mfa',
    icon: IconShieldLock,
    color: 'violet',
  },
  {
    title: 'System Management',
    description: 'Processes, connections, logs, updates and backups',
    to: '/system/monitoring',
    icon: IconDeviceDesktopAnalytics,
    color: 'gray',
  },
  {
    title: 'Real-time Monitoring',
    description: 'Live metrics, alerts, services and log stream',
    to: '/monitoring',
    icon: IconActivity,
    color: 'orange',
  },
  {
    title: 'Bulk Operations',
    description: 'Run one operation over many mailboxes, zones or certificates',
    to: '/bulk-operations',
    icon: IconStack2,
    color: 'cyan',
  },
  {
    title: 'API Monitoring',
    description: 'Request counts, errors, response times and rate limits',
    to: '/api-monitoring',
    icon: IconApi,
    color: 'pink',
  },
];
