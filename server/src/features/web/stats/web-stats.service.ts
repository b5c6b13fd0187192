import {
  WEB_DASHBOARD_ACTIVITY,
  WEB_DASHBOARD_VHOSTS,
  type WebActivity,
  type WebDashboard,
  type WebServiceStatus,
} from '@mailroom/contract/web/stats';
import { isPostgres } from '../../../db/database.ts';
import { readOutcome } from '../../../apply/outcome.repository.ts';
import type { WebContext } from '../stack/web.context.ts';
import { WEB_TARGET } from '../stack/apache.target.ts';
import { listVhostRows, rowValues, toVirtualHost, vhostCounts } from '../vhosts/vhost.repository.ts';
import { APACHE_USER } from '../stack/apache.layout.ts';
import { databaseAnswers, recentWebAudit } from './web-activity.repository.ts';
import { rollUpAccessLog } from './log-rollup.service.ts';
import { type Figures, figuresSince } from './web-traffic.repository.ts';
import { appCounts } from '../applications/application.repository.ts';

const DAY_MINUTES = 24 * 60;

/** A host's traffic (requests) and average response time (ms) over the last day (Apache logs %v: its ServerName). */
export function vhostFigures(
  figures: Map<string, Figures>,
  domain: string,
): { traffic: number; responseTime: number | null } {
  const f = figures.get(domain);
  return {
    traffic: f?.requests ?? 0,
    responseTime: f?.requests ? Math.round(f.durationUs / f.requests / 100) / 10 : null,
  };
}

/** The last day's figures per host (for the lists). */
export async function dayFigures(ctx: WebContext): Promise<Map<string, Figures>> {
  await rollUpAccessLog(ctx.deps).catch(() => undefined);
  return figuresSince(ctx.db, Math.floor(Date.now() / 60_000) - DAY_MINUTES);
}

function activityType(action: string): WebActivity['type'] {
  if (action.startsWith('ssl.')) return 'ssl';
  if (action.startsWith('web.')) return 'configuration';
  return 'other';
}

const DESCRIBE: Record<string, string> = {
  'web.vhost.create': 'Virtual host added',
  'web.vhost.update': 'Virtual host changed',
  'web.vhost.status': 'Virtual host status changed',
  'web.vhost.remove': 'Virtual host deleted',
  'web.domain.add': 'Domain hosted',
  'web.domain.remove': 'Domain no longer hosted',
  'web.settings.save': 'Web server settings saved',
  'web.settings.reset': 'Web server settings reset to defaults',
};

/** The web dashboard: every figure real (see the contract); none is fixed text. */
export async function webDashboard(
  ctx: WebContext,
  applications: () => Promise<WebDashboard['applications']> = async () => [],
): Promise<WebDashboard> {
  const db = ctx.db;
  // The figures read what Apache logged up to now.
  await rollUpAccessLog(ctx.deps).catch(() => undefined);
  const figures = await figuresSince(db, Math.floor(Date.now() / 60_000) - DAY_MINUTES);
  const total = figures.get('') ?? { requests: 0, errors: 0, durationUs: 0 };
  const [apps, counts, apache, dbUp, outcome, audit, top, php] = await Promise.all([
    appCounts(db),
    vhostCounts(db),
    ctx.control.state(),
    databaseAnswers(db),
    readOutcome(db, WEB_TARGET),
    recentWebAudit(db, WEB_DASHBOARD_ACTIVITY),
    listVhostRows(db, { limit: WEB_DASHBOARD_VHOSTS, sort: '-lastModified' }, null),
    ctx.php.states(),
  ]);
  const fpm = php.find((p) => p.state === 'running') ?? php[0] ?? null;
  const status: WebServiceStatus[] = [
    { name: 'Web Server', state: apache.state, detail: apache.detail, pid: apache.pid, since: null },
    {
      name: 'PHP',
      state: fpm ? fpm.state : 'not-installed',
      detail: fpm
        ? php.map((p) => `PHP ${p.version}: ${p.detail}`).join(' ')
        : 'No PHP-FPM is installed (Debian package php8.2-fpm).',
      pid: fpm?.pid ?? null,
      since: null,
    },
    {
      name: 'Database',
      state: dbUp ? 'running' : 'failed',
      detail: `${isPostgres(db as never) ? 'PostgreSQL' : 'SQLite'}${dbUp ? ' answers.' : ' does not answer.'}`,
      pid: null,
      since: null,
    },
    {
      name: 'SSL/TLS',
      state: counts.ssl === 0 ? 'stopped' : apache.state === 'running' ? 'running' : apache.state,
      detail: `${counts.ssl} of ${counts.total} virtual hosts serve HTTPS.`,
      pid: null,
      since: null,
    },
  ];
  const activity: WebActivity[] = audit.map((a) => ({
    id: `audit-${a.id}`,
    type: activityType(a.action),
    description: `${DESCRIBE[a.action] ?? a.action}${a.target ? `: ${a.target}` : ''}`,
    timestamp: a.at,
    status: a.outcome === 'success' ? 'success' : 'error',
    details: a.actor ? `by ${a.actor}` : '',
  }));
  if (outcome && outcome.state !== 'applied') {
    activity.unshift({
      id: `apply-${outcome.at}`,
      type: 'error',
      description: outcome.message,
      timestamp: outcome.at,
      status: outcome.state === 'pending' ? 'warning' : 'error',
      details: outcome.output.slice(0, 2000),
    });
  }
  const live = outcome?.state !== 'failed';
  return {
    stats: {
      totalVirtualHosts: counts.total,
      activeVirtualHosts: counts.active,
      totalWebApplications: apps.total,
      activeWebApplications: apps.active,
      totalDomains: counts.total,
      sslEnabledDomains: counts.ssl,
      totalTraffic: total.requests,
      averageResponseTime: total.requests ? Math.round(total.durationUs / total.requests / 100) / 10 : null,
      errorRate: total.requests ? Math.round((total.errors / total.requests) * 10000) / 100 : null,
      uptime: apache.uptime,
    },
    status,
    applications: await applications(),
    virtualHosts: top.items.map((r) =>
      toVirtualHost(r, {
        siteUser: APACHE_USER,
        live,
        figures: vhostFigures(figures, rowValues(r).serverName),
      }),
    ),
    activity: activity.slice(0, WEB_DASHBOARD_ACTIVITY),
    apply: outcome
      ? { state: outcome.state, message: outcome.message, at: outcome.at }
      : { state: 'never', message: 'Nothing applied yet.', at: null },
  };
}
