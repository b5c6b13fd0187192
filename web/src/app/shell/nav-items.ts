import {
  IconCertificate,
  IconDeviceDesktopAnalytics,
  IconHistory,
  IconLayoutDashboard,
  IconMail,
  IconServer,
  IconShieldLock,
  IconWorld,
  type Icon,
} from '@tabler/icons-react';

export interface NavItem {
  label: string;
  to: string;
  icon: Icon;
  /** Highlight only on the exact path (Dashboard), or for every path under `prefix`. */
  exact?: boolean;
  prefix?: string;
  /** The area's own screens, listed under it while it is open. */
  children?: readonly { label: string; to: string }[];
}

/** Spec §2 navigation sidebar. */
export const NAV_ITEMS: readonly NavItem[] = [
  { label: 'Dashboard', to: '/dashboard', icon: IconLayoutDashboard, exact: true },
  {
    label: 'Mail Management',
    to: '/mail',
    icon: IconMail,
    children: [
      { label: 'Mailboxes', to: '/mail/mailboxes' },
      { label: 'Aliases', to: '/mail/aliases' },
      { label: 'Domains', to: '/mail/domains' },
      { label: 'Mail Settings', to: '/mail/settings' },
    ],
  },
  { label: 'DNS Management', to: '/dns', icon: IconWorld },
  { label: 'SSL Management', to: '/ssl', icon: IconCertificate },
  { label: 'Web Management', to: '/web', icon: IconServer },
  { label: 'MFA Management', to: '/mfa', icon: IconShieldLock },
  {
    label: 'System Management',
    to: '/system/monitoring',
    icon: IconDeviceDesktopAnalytics,
    prefix: '/system',
  },
  { label: 'Audit Log', to: '/audit', icon: IconHistory },
];

export function isNavActive(item: NavItem, pathname: string): boolean {
  const path = pathname.replace(/\/+$/, '') || '/';
  if (item.exact) return path === item.to;
  const base = item.prefix ?? item.to;
  return path === base || path.startsWith(`${base}/`);
}

/** A domain administrator's navigation: only the screens of their domains. */
export const DOMAIN_ADMIN_NAV_ITEMS: readonly NavItem[] = [
  {
    label: 'Mail Management',
    to: '/mail/mailboxes',
    prefix: '/mail',
    icon: IconMail,
    children: [
      { label: 'Mailboxes', to: '/mail/mailboxes' },
      { label: 'Aliases', to: '/mail/aliases' },
      { label: 'Domains', to: '/mail/domains' },
    ],
  },
  {
    label: 'DNS Management',
    to: '/dns/zones',
    prefix: '/dns',
    icon: IconWorld,
    children: [
      { label: 'Zones', to: '/dns/zones' },
      { label: 'Records', to: '/dns/records' },
    ],
  },
];

/** While the role is loading (null) the full list shows; the pages wait for it (AccessGate). */
export const navItemsFor = (role: 'admin' | 'domain-admin' | null): readonly NavItem[] =>
  role === 'domain-admin' ? DOMAIN_ADMIN_NAV_ITEMS : NAV_ITEMS;
