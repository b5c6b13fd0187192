/**
 * How a site's own backup names what it holds: `site <domain>`, or `app <name>` when the site is a
 * web application's host (its data folder is backed up, issue 20). Beside the site backups, which
 * call it.
 */
export const backupLabel = (s: { domain: string; app?: { name: string } }): string =>
  s.app ? `app ${s.app.name}` : `site ${s.domain}`;

/** The same for a backup row (restore). */
export const restoredLabel = (r: { site_domain: string | null; app_name: string | null }): string =>
  r.app_name ? `app ${r.app_name}` : `site ${r.site_domain ?? ''}`;
