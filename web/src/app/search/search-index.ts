/** Spec §3 search result entry. `icon` names an icon the shell knows (see search-icons.tsx). */
export interface SearchEntry {
  id: string;
  title: string;
  description: string;
  type: 'action' | 'page' | 'settings';
  module: string;
  route: string;
  icon: string;
  category: 'Actions' | 'Pages' | 'Settings';
  relevance: number;
}

type Seed = Omit<SearchEntry, 'category' | 'id'>;

const CATEGORY = { action: 'Actions', page: 'Pages', settings: 'Settings' } as const;

const seeds: Seed[] = [
  {
    title: 'Mailboxes',
    description: 'Create, list and delete mailboxes and their quotas',
    type: 'page',
    module: 'Mail',
    route: '/mail/mailboxes',
    icon: 'mail',
    relevance: 90,
  },
  {
    title: 'Email Aliases',
    description: 'Forward addresses to other mailboxes; import and export CSV',
    type: 'page',
    module: 'Mail',
    route: '/mail/aliases',
    icon: 'forward',
    relevance: 85,
  },
  {
    title: 'Domains',
    description: 'Mail domains: add and remove them, their DKIM keys and DNS records',
    type: 'page',
    module: 'Mail',
    route: '/mail/domains',
    icon: 'world',
    relevance: 80,
  },
  {
    title: 'Mail Settings',
    description: 'Host name, MX records, spam and virus filtering, DKIM, SPF, DMARC, limits',
    type: 'settings',
    module: 'Mail',
    route: '/mail/settings',
    icon: 'settings',
    relevance: 80,
  },
  {
    title: 'DNS Zones',
    description: 'Manage DNS zones and their SOA data',
    type: 'page',
    module: 'DNS',
    route: '/dns/zones',
    icon: 'world',
    relevance: 85,
  },
  {
    title: 'DNS Records',
    description: 'A, AAAA, CNAME, MX, TXT and other records of every zone',
    type: 'page',
    module: 'DNS',
    route: '/dns/records',
    icon: 'list',
    relevance: 80,
  },
  {
    title: 'DNS Settings',
    description: 'Name server, zone defaults, security, performance and logging',
    type: 'settings',
    module: 'DNS',
    route: '/dns/settings',
    icon: 'settings',
    relevance: 70,
  },
  {
    title: 'SSL Certificates',
    description: 'View, upload, renew and download certificates',
    type: 'page',
    module: 'SSL',
    route: '/ssl/certificates',
    icon: 'certificate',
    relevance: 85,
  },
  {
    title: 'Generate Certificate',
    description: 'Create a self-signed certificate, a signing request or an ACME certificate',
    type: 'action',
    module: 'SSL',
    route: '/ssl/generate',
    icon: 'plus',
    relevance: 75,
  },
  {
    title: 'SSL Settings',
    description: 'Protocols, ciphers, HSTS, OCSP stapling and renewal',
    type: 'settings',
    module: 'SSL',
    route: '/ssl/settings',
    icon: 'settings',
    relevance: 70,
  },
  {
    title: 'Virtual Hosts',
    description: 'Web sites: domains, document roots, SSL and status',
    type: 'page',
    module: 'Web',
    route: '/web/vhosts',
    icon: 'server',
    relevance: 80,
  },
  {
    title: 'Web Applications',
    description: 'Deployed applications and their status',
    type: 'page',
    module: 'Web',
    route: '/web/applications',
    icon: 'apps',
    relevance: 75,
  },
  {
    title: 'Web Server Configuration',
    description: 'Web server performance, security headers, logging, PHP and rate limiting',
    type: 'settings',
    module: 'Web',
    route: '/web/settings',
    icon: 'settings',
    relevance: 70,
  },
  {
    title: 'MFA Management',
    description: 'Users, devices and policies of multi-factor authentication',
    type: 'page',
    module: 'MFA',
    route: '/mfa/management',
    icon: 'shield',
    relevance: 75,
  },
  {
    title: 'MFA Recovery',
    description: 'Recovery requests, account lockouts and backup codes',
    type: 'page',
    module: 'MFA',
    route: '/mfa/recovery',
    icon: 'lifebuoy',
    relevance: 65,
  },
  {
    title: 'System Monitoring',
    description: 'CPU, memory, disk, network, processes, connections and logs',
    type: 'page',
    module: 'System',
    route: '/system/monitoring',
    icon: 'activity',
    relevance: 80,
  },
  {
    title: 'System Management',
    description: 'Updates, settings, backups and log files',
    type: 'page',
    module: 'System',
    route: '/system/management',
    icon: 'tool',
    relevance: 70,
  },
  {
    title: 'System Administration',
    description: 'Uptime, load, network activity, services and processes',
    type: 'page',
    module: 'System',
    route: '/system',
    icon: 'dashboard',
    relevance: 65,
  },
];

/** The spec's built-in index of destinations (§2 "Global search"). */
export const SEARCH_INDEX: readonly SearchEntry[] = seeds.map((s) => ({
  ...s,
  id: `${s.type}:${s.route}`,
  category: CATEGORY[s.type],
}));
