import { lazy } from 'react';
import { createBrowserRouter, Navigate, type RouteObject } from 'react-router';
import LoginPage from '../features/auth/login-page.tsx';
import { PageError } from './page-error.tsx';
import { RequireAuth, RequireConsole } from './require-auth.tsx';

// Everything behind the sign-in is loaded on demand, so /login stays small.
const loadShell = () => import('./shell/shell-layout.tsx');
const loadDashboard = () => import('../features/dashboard/dashboard-page.tsx');
const ShellLayout = lazy(loadShell);
const StandaloneLayout = lazy(() => import('./standalone-layout.tsx'));
const DashboardPage = lazy(loadDashboard);

/**
 * With a stored key the console will show the shell: fetch its chunk (and the dashboard's) while
 * the startup session check runs, instead of after it. `lazy` then finds them loaded.
 */
export function preloadConsole(pathname: string): void {
  void loadShell().catch(() => undefined);
  if (pathname === '/dashboard' || pathname === '/' || pathname === '/login')
    void loadDashboard().catch(() => undefined);
}

const MailDashboardPage = lazy(() => import('../features/mail/mail-dashboard-page.tsx'));
const MailboxesPage = lazy(() => import('../features/mail/mailboxes-page.tsx'));
const AliasesPage = lazy(() => import('../features/mail/aliases-page.tsx'));
const MailDomainsPage = lazy(() => import('../features/mail/mail-domains-page.tsx'));
const MailSettingsPage = lazy(() => import('../features/mail/mail-settings-page.tsx'));

const DnsDashboardPage = lazy(() => import('../features/dns/dns-dashboard-page.tsx'));
const ZonesPage = lazy(() => import('../features/dns/zones-page.tsx'));
const RecordsPage = lazy(() => import('../features/dns/records-page.tsx'));
const DnsSettingsPage = lazy(() => import('../features/dns/dns-settings-page.tsx'));

const SslDashboardPage = lazy(() => import('../features/ssl/ssl-dashboard-page.tsx'));
const CertificatesPage = lazy(() => import('../features/ssl/certificates-page.tsx'));
const GenerateCertificatePage = lazy(() => import('../features/ssl/generate-certificate-page.tsx'));
const SslSettingsPage = lazy(() => import('../features/ssl/ssl-settings-page.tsx'));

const WebDashboardPage = lazy(() => import('../features/web/web-dashboard-page.tsx'));
const VhostsPage = lazy(() => import('../features/web/vhosts-page.tsx'));
const ApplicationsPage = lazy(() => import('../features/web/applications-page.tsx'));
const WebSettingsPage = lazy(() => import('../features/web/web-settings-page.tsx'));

const MfaDashboardPage = lazy(() => import('../features/mfa/mfa-dashboard-page.tsx'));
const MfaManagementPage = lazy(() => import('../features/mfa/mfa-management-page.tsx'));
const MfaRecoveryPage = lazy(() => import('../features/mfa/mfa-recovery-page.tsx'));

const SystemPage = lazy(() => import('../features/system/system-page.tsx'));
const SystemMonitoringPage = lazy(() => import('../features/system/system-monitoring-page.tsx'));
const SystemManagementPage = lazy(() => import('../features/system/system-management-page.tsx'));

const MonitoringPage = lazy(() => import('../features/monitoring/monitoring-page.tsx'));
const ApiMonitoringPage = lazy(() => import('../features/monitoring/api-monitoring-page.tsx'));
const BulkOperationsPage = lazy(() => import('../features/bulk/bulk-operations-page.tsx'));
const AuditPage = lazy(() => import('../features/audit/audit-page.tsx'));
// The signed-in account's own security page, outside the shell: an account that must enrol a
// second factor can reach nothing else yet.
const AccountPage = lazy(() => import('../features/account/account-page.tsx'));

/** Spec §2 route table: the console pages, all behind a stored login and inside the shell. */
export const consoleRoutes: RouteObject[] = [
  { path: '/dashboard', Component: DashboardPage },

  { path: '/mail', Component: MailDashboardPage },
  { path: '/mail/mailboxes', Component: MailboxesPage },
  { path: '/mail/aliases', Component: AliasesPage },
  { path: '/mail/domains', Component: MailDomainsPage },
  { path: '/mail/settings', Component: MailSettingsPage },

  { path: '/dns', Component: DnsDashboardPage },
  { path: '/dns/zones', Component: ZonesPage },
  { path: '/dns/zones/:domain', Component: ZonesPage },
  { path: '/dns/records', Component: RecordsPage },
  { path: '/dns/settings', Component: DnsSettingsPage },

  { path: '/ssl', Component: SslDashboardPage },
  { path: '/ssl/certificates', Component: CertificatesPage },
  { path: '/ssl/generate', Component: GenerateCertificatePage },
  { path: '/ssl/settings', Component: SslSettingsPage },

  { path: '/web', Component: WebDashboardPage },
  { path: '/web/vhosts', Component: VhostsPage },
  { path: '/web/applications', Component: ApplicationsPage },
  { path: '/web/settings', Component: WebSettingsPage },

  { path: '/mfa', Component: MfaDashboardPage },
  { path: '/mfa/management', Component: MfaManagementPage },
  { path: '/mfa/recovery', Component: MfaRecoveryPage },

  { path: '/system', Component: SystemPage },
  { path: '/system/monitoring', Component: SystemMonitoringPage },
  { path: '/system/management', Component: SystemManagementPage },

  { path: '/monitoring', Component: MonitoringPage },
  { path: '/bulk-operations', Component: BulkOperationsPage },
  { path: '/api-monitoring', Component: ApiMonitoringPage },
  { path: '/audit', Component: AuditPage },
];

export const routes: RouteObject[] = [
  { path: '/', element: <Navigate to="/login" replace /> },
  { path: '/login', Component: LoginPage },
  {
    Component: RequireAuth,
    children: [
      {
        Component: StandaloneLayout,
        children: [{ path: '/account', Component: AccountPage, ErrorBoundary: PageError }],
      },
      {
        Component: RequireConsole,
        children: [
          { Component: ShellLayout, children: [{ ErrorBoundary: PageError, children: consoleRoutes }] },
        ],
      },
    ],
  },
  // Spec §2: any other path goes to /login (which forwards a signed-in user to /dashboard).
  { path: '*', element: <Navigate to="/login" replace /> },
];

export function createAppRouter() {
  return createBrowserRouter(routes);
}
