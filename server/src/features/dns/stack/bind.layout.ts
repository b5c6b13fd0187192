import path from 'node:path';
import type { Host } from '../../../host/host.ts';

/** System paths of what Mailroom renders for BIND (mapped under the host root when written). */
export const BIND_SYSTEM_PATHS = {
  main: '/etc/bind/mailroom/named.conf',
  options: '/etc/bind/mailroom/options.conf',
  logging: '/etc/bind/mailroom/logging.conf',
  zones: '/etc/bind/mailroom/zones.conf',
  zoneFile: (domain: string) => `/etc/bind/mailroom/zones/db.${domain}`,
  workDir: '/var/cache/bind',
  /** Written with the configuration so named's working directory exists (named-checkconf insists). */
  workDirMarker: '/var/cache/bind/.mailroom',
  pidFile: '/run/named/named.pid',
  /** Debian's control key (`rndc-confgen -a`), shared by named and rndc. */
  rndcKey: '/etc/bind/rndc.key',
  sessionKeyFile: '/run/named/session.key',
} as const;

/**
 * Where the rendered files live and what they point at. Paths inside the files are the mapped
 * ones, so a named started on the rendered named.conf finds them both in system mode (root `/`)
 * and under a data folder.
 */
export interface BindLayout {
  main: string;
  options: string;
  logging: string;
  zones: string;
  zoneFile(domain: string): string;
  /** named's working directory; secondary copies and log files go here. */
  workDir: string;
  pidFile: string;
  sessionKeyFile: string;
  /** System mode opens the rndc channel on 127.0.0.1:953 with `rndcKey`; otherwise it is off. */
  controls: boolean;
  rndcKey: string;
  /** Addresses named listens on (BIND address match list elements). */
  listenOn: string[];
  /** IPv6 addresses named listens on when Enable IPv6 is on (`any` in system mode, `::1` in local mode). */
  listenOnV6?: string[];
  /**
   * Local mode (the host root is a data folder): named serves only Mailroom's zones, on loopback,
   * to the machine itself; no recursion and no cache, whatever Allow Recursive Queries says.
   */
  authoritativeOnly?: boolean;
  /** Local mode under Mailroom's supervisor: named listens here (MAILROOM_DNS_PORT), not on Server Port. */
  port?: number;
}

export function bindLayout(host: Host, opts: { listenOn?: string[]; port?: number } = {}): BindLayout {
  const p = BIND_SYSTEM_PATHS;
  const local = path.resolve(host.root) !== '/';
  return {
    main: host.path(p.main),
    options: host.path(p.options),
    logging: host.path(p.logging),
    zones: host.path(p.zones),
    zoneFile: (d) => host.path(p.zoneFile(d)),
    workDir: host.path(p.workDir),
    pidFile: host.path(p.pidFile),
    sessionKeyFile: host.path(p.sessionKeyFile),
    controls: host.reloadEnabled,
    rndcKey: host.path(p.rndcKey),
    listenOn: opts.listenOn ?? (local ? ['127.0.0.1'] : ['any']),
    listenOnV6: local ? ['::1'] : ['any'],
    authoritativeOnly: local,
    ...(opts.port ? { port: opts.port } : {}),
  };
}
