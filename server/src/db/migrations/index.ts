import type { Migration } from 'kysely';
import * as m0001 from './0001-core.ts';
import * as m0002 from './0002-mail.ts';
import * as m0003 from './0003-dns.ts';
import * as m0004 from './0004-mail-system-aliases.ts';
import * as m0005 from './0005-pipeline.ts';
import * as m0006 from './0006-security.ts';
import * as m0007 from './0007-jobs.ts';
import * as m0010 from './0010-paging.ts';
import * as m0011 from './0011-ssl.ts';
import * as m0012 from './0012-acme.ts';
import * as m0013 from './0013-accounts-mfa.ts';
import * as m0015 from './0015-system-admin.ts';
import * as m0017 from './0017-console-shell.ts';
import * as m0018 from './0018-domain-admins.ts';
import * as m0019 from './0019-mailbox-accounts.ts';
import * as m0020 from './0020-ssl-finish.ts';
import * as m0021 from './0021-mailbox-export-json.ts';
import * as m0022 from './0022-web.ts';
import * as m0023 from './0023-web-traffic.ts';
import * as m0024 from './0024-account-sessions.ts';
import * as m0027 from './0027-alert-notifications.ts';
import * as m0028 from './0028-bulk.ts';
import * as m0029 from './0029-api-monitoring.ts';
import * as m0030 from './0030-web-apps.ts';
import * as m0033 from './0033-api-key-stats.ts';
import * as m0035 from './0035-site-backups.ts';
import * as m0037 from './0037-updates-reading.ts';
import * as m0038 from './0038-web-ssl-health.ts';
import * as m0039 from './0039-web-tls-minutes.ts';
import * as m0041 from './0041-web-app-instances.ts';
import * as m0042 from './0042-web-app-metrics.ts';
import * as m0043 from './0043-app-auto-deploy-backups.ts';

/** Every migration, in order. Add one line per new numbered file. */
export const migrations: Record<string, Migration> = {
  '0001-core': m0001,
  '0002-mail': m0002,
  '0003-dns': m0003,
  '0004-mail-system-aliases': m0004,
  '0005-pipeline': m0005,
  '0006-security': m0006,
  '0007-jobs': m0007,
  '0010-paging': m0010,
  '0011-ssl': m0011,
  '0012-acme': m0012,
  '0013-accounts-mfa': m0013,
  '0015-system-admin': m0015,
  '0017-console-shell': m0017,
  '0018-domain-admins': m0018,
  '0019-mailbox-accounts': m0019,
  '0020-ssl-finish': m0020,
  '0021-mailbox-export-json': m0021,
  '0022-web': m0022,
  '0023-web-traffic': m0023,
  '0024-account-sessions': m0024,
  '0027-alert-notifications': m0027,
  '0028-bulk': m0028,
  '0029-api-monitoring': m0029,
  '0030-web-apps': m0030,
  '0033-api-key-stats': m0033,
  '0035-site-backups': m0035,
  '0037-updates-reading': m0037,
  '0038-web-ssl-health': m0038,
  '0039-web-tls-minutes': m0039,
  '0041-web-app-instances': m0041,
  '0042-web-app-metrics': m0042,
  '0043-app-auto-deploy-backups': m0043,
};
