import type { VirtualHostValues } from '@mailroom/contract/web/vhosts';
import type { ApacheMode } from '../stack/apache.layout.ts';
import { phpIdleSocket, phpLocalLog, phpLocalPid, phpPoolDir, phpSocket } from './php.layout.ts';

/** Who a pool runs as: the site's own user (as root), else Mailroom's user (no user lines). */
export interface PoolUser {
  user: string;
  group: string;
  /** Who may connect to the socket: Apache's user (as root). */
  listenOwner: string | null;
}

const HEADER = (what: string) =>
  `; Rendered by Mailroom for ${what}. Do not edit: Mailroom overwrites this file.\n`;

/**
 * One site's pool: its own processes, as its own user, on its own socket, with the site's limits
 * as php_admin_value (the script cannot raise them; ini_get shows them).
 */
export function renderPool(v: VirtualHostValues, user: PoolUser | null, mode: ApacheMode): string {
  const p = mode.hostPath;
  let out = HEADER(`the virtual host ${v.domain}`);
  out += `[mailroom-${v.domain}]\n`;
  if (user) out += `user = ${user.user}\ngroup = ${user.group}\n`;
  out += `listen = ${p(phpSocket(v.domain))}\n`;
  if (user?.listenOwner) out += `listen.owner = ${user.listenOwner}\nlisten.group = ${user.listenOwner}\n`;
  out += 'listen.mode = 0660\n';
  out += 'pm = ondemand\npm.max_children = 5\npm.process_idle_timeout = 10s\npm.max_requests = 500\n';
  out += `chdir = ${p(v.documentRoot)}\n`;
  out += 'security.limit_extensions = .php\n';
  out += `php_admin_value[memory_limit] = ${v.phpMemoryLimit}\n`;
  out += `php_admin_value[max_execution_time] = ${v.phpMaxExecutionTime}\n`;
  out += `php_admin_value[upload_max_filesize] = ${v.phpUploadMaxFilesize}\n`;
  out += `php_admin_value[post_max_size] = ${v.phpPostMaxSize}\n`;
  return out;
}

/** Local mode: the master's main file (its pid, log, an idle pool of its own, and the sites' pools). */
export function renderLocalFpmMain(version: string, mode: ApacheMode, idleUser: string | null): string {
  const p = mode.hostPath;
  let out = HEADER(`PHP ${version} (local mode): Mailroom runs this master`);
  out += '[global]\n';
  out += `pid = ${p(phpLocalPid(version))}\n`;
  out += `error_log = ${p(phpLocalLog(version))}\n`;
  out += 'daemonize = no\n';
  out += `include = ${p(phpPoolDir(version))}/*.conf\n`;
  out += `[mailroom-idle]\n`;
  if (idleUser) out += `user = ${idleUser}\ngroup = ${idleUser}\n`;
  out += `listen = ${p(phpIdleSocket(version))}\nlisten.mode = 0600\n`;
  out += 'pm = ondemand\npm.max_children = 1\n';
  return out;
}
