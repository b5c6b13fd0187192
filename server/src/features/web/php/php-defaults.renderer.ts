import type { WebServerSettings } from '@mailroom/contract/web/settings';
import type { ApacheMode } from '../stack/apache.layout.ts';

/**
 * The server-wide PHP defaults of the web server settings (issue 19 item 4), in every site's pool
 * after the site's own limits: the values no site sets itself (input time, file uploads), the
 * site's own session folder and the session cookie's flags. A site's own PHP fields (memory,
 * execution time, upload and post sizes) stay its pool's.
 */

/** A site's sessions: its own folder under PHP Session Save Path (the site's user only, mode 0700). */
export const phpSessionDir = (s: Pick<WebServerSettings, 'phpSessionSavePath'>, domain: string) =>
  `${s.phpSessionSavePath.replace(/\/+$/, '')}/${domain}`;

/** The PHP fields of the settings that reach the pools: a change of one renders every pool again. */
export const PHP_POOL_FIELDS = [
  'phpMaxInputTime',
  'phpMaxFileUploads',
  'phpSessionSavePath',
  'phpSessionCookieLifetime',
  'phpSessionCookieSecure',
  'phpSessionCookieHttpOnly',
  'phpSessionCookieSameSite',
] as const satisfies readonly (keyof WebServerSettings)[];

const flag = (on: boolean) => (on ? 'on' : 'off');

export function renderPoolDefaults(s: WebServerSettings, domain: string, mode: ApacheMode): string {
  let out = '; Server-wide PHP defaults (web server settings, PHP)\n';
  out += `php_admin_value[max_input_time] = ${s.phpMaxInputTime}\n`;
  out += `php_admin_value[max_file_uploads] = ${s.phpMaxFileUploads}\n`;
  out += `php_admin_value[session.save_path] = ${mode.hostPath(phpSessionDir(s, domain))}\n`;
  out += `php_value[session.cookie_lifetime] = ${s.phpSessionCookieLifetime}\n`;
  out += `php_flag[session.cookie_secure] = ${flag(s.phpSessionCookieSecure)}\n`;
  out += `php_flag[session.cookie_httponly] = ${flag(s.phpSessionCookieHttpOnly)}\n`;
  out += `php_value[session.cookie_samesite] = ${s.phpSessionCookieSameSite}\n`;
  return out;
}
