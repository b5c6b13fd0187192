import { MANAGED_HEADER } from './mail-paths.layout.ts';

/**
 * rspamd is the mail filter: one Postfix milter (its proxy worker scanning by itself) that filters
 * spam, checks SPF/DKIM/DMARC, signs DKIM and, when ClamAV is there, scans for viruses. Mailroom
 * writes only `local.d` overrides and two lookup maps on top of Debian's stock `/etc/rspamd`, so
 * package updates keep the rules current.
 */
export const RSPAMD_PATHS = {
  /** Debian's stock configuration (CONFDIR); never written. */
  stockConf: '/etc/rspamd/rspamd.conf',
  /** LOCAL_CONFDIR: `/etc/rspamd` in system mode, `<root>/etc/rspamd` in local mode. */
  localConfDir: '/etc/rspamd',
  proxy: '/etc/rspamd/local.d/worker-proxy.inc',
  normal: '/etc/rspamd/local.d/worker-normal.inc',
  controller: '/etc/rspamd/local.d/worker-controller.inc',
  options: '/etc/rspamd/local.d/options.inc',
  fuzzy: '/etc/rspamd/local.d/fuzzy_check.conf',
  actions: '/etc/rspamd/local.d/actions.conf',
  dkimSigning: '/etc/rspamd/local.d/dkim_signing.conf',
  antivirus: '/etc/rspamd/local.d/antivirus.conf',
  dkimSelectors: '/etc/rspamd/mailroom/dkim-selectors.map',
  dkimPaths: '/etc/rspamd/mailroom/dkim-paths.map',
  /** Private keys: the signer's own folder (Debian's default `$domain.$selector.key` naming). */
  dkimKeyDir: '/var/lib/rspamd/dkim',
  dkimKey: (domain: string, selector: string) => `/var/lib/rspamd/dkim/${domain}.${selector}.key`,
  dbDir: '/var/lib/rspamd',
  runDir: '/run/rspamd',
  logDir: '/var/log/rspamd',
  clamdSocket: '/var/run/clamav/clamd.ctl',
} as const;

/** The Unix user Debian's rspamd runs as; DKIM private keys are readable by it alone. */
export const RSPAMD_USER = '_rspamd';

/** Where Debian's rspamd proxy (the milter) listens in system mode. */
export const SYSTEM_MILTER_PORT = 11332;

/** Longest unix socket path the kernel takes (sun_path is 108 bytes with its NUL). */
const MAX_SOCKET_PATH = 100;

export interface RspamdPaths {
  /** Already mapped under the host root. */
  dkimSelectors: string;
  dkimPaths: string;
  dkimKey: (domain: string, selector: string) => string;
  /**
   * Local mode: where the normal worker and controller listen (unix sockets under the host root)
   * and which name server rspamd asks (Mailroom's own, so nothing leaves the machine). Null in
   * system mode: Debian's defaults stand (11333/11334 on localhost, the system resolver).
   */
  local: { normalSocket: string; controllerSocket: string; nameserver: string } | null;
}

export interface RspamdOptions {
  spam: boolean;
  dkim: boolean;
  /** The milter's listening address, `127.0.0.1:<port>`. */
  milter: string;
  /** Set only when ClamAV's daemon and its signatures are installed. */
  clamdSocket: string | null;
}

export interface DkimSigner {
  domain: string;
  selector: string;
}

const quote = (v: string) => {
  if (/["\\\r\n]/.test(v))
    throw new Error(`rspamd value must not contain quotes, backslashes or line breaks: ${v}`);
  return `"${v}"`;
};

const file = (...lines: string[]) => [MANAGED_HEADER, ...lines].join('\n') + '\n';

/** The `local.d` files and maps for these switches; `path` is the system path (mapped by the Host). */
export function renderRspamd(
  o: RspamdOptions,
  p: RspamdPaths,
  signers: DkimSigner[],
): { path: string; content: string }[] {
  const files: { path: string; content: string }[] = [];
  // The proxy speaks the milter protocol and scans by itself (no round trip to a normal worker).
  // With spam filtering off it still runs every check but never rejects: DKIM signing only.
  files.push({
    path: RSPAMD_PATHS.proxy,
    content: file(
      `bind_socket = ${quote(o.milter)};`,
      'milter = yes;',
      'timeout = 120s;',
      'upstream "local" {',
      '  default = yes;',
      '  self_scan = yes;',
      '}',
    ),
  });
  // Spam filtering off: rspamd still signs (and checks), but no score rejects, delays or marks mail.
  files.push({
    path: RSPAMD_PATHS.actions,
    content: o.spam
      ? file("# Spam filtering is on: Debian's thresholds (reject 15, add_header 6, greylist 4).")
      : file('reject = null;', 'add_header = null;', 'greylist = null;', 'rewrite_subject = null;'),
  });
  if (p.local) {
    const worker = (socket: string) =>
      socket.length <= MAX_SOCKET_PATH
        ? file(`bind_socket = ${quote(`${socket} mode=0660`)};`)
        : file(`# ${socket} is too long for a unix socket: this worker is off.`, 'count = -1;');
    files.push({ path: RSPAMD_PATHS.normal, content: worker(p.local.normalSocket) });
    files.push({ path: RSPAMD_PATHS.controller, content: worker(p.local.controllerSocket) });
    // Local mode asks only Mailroom's own name server: no lookups or map downloads leave the machine.
    files.push({
      path: RSPAMD_PATHS.options,
      content: file(
        'dns {',
        `  nameserver = [${quote(p.local.nameserver)}];`,
        '  timeout = 1s;',
        '  retransmits = 1;',
        '}',
      ),
    });
    // Fuzzy hashes go to rspamd.com's servers: not from a loopback test server.
    files.push({ path: RSPAMD_PATHS.fuzzy, content: file('enabled = false;') });
  }
  files.push({
    path: RSPAMD_PATHS.dkimSigning,
    content: o.dkim
      ? file(
          'enabled = true;',
          // Only mail from authenticated users (submission) or from the machine itself; the From
          // domain must be the user's own and listed in the selector map.
          'sign_authenticated = true;',
          'sign_local = true;',
          'sign_inbound = false;',
          'use_domain = "header";',
          'use_esld = false;',
          'allow_hdrfrom_mismatch = false;',
          'allow_username_mismatch = false;',
          'try_fallback = false;',
          'use_redis = false;',
          `selector_map = ${quote(p.dkimSelectors)};`,
          `path_map = ${quote(p.dkimPaths)};`,
        )
      : file('enabled = false;'),
  });
  const sorted = [...signers].sort((a, b) => a.domain.localeCompare(b.domain));
  files.push({
    path: RSPAMD_PATHS.dkimSelectors,
    content: file(...(o.dkim ? sorted.map((s) => `${mapKey(s.domain)} ${mapKey(s.selector)}`) : [])),
  });
  files.push({
    path: RSPAMD_PATHS.dkimPaths,
    content: file(
      ...(o.dkim ? sorted.map((s) => `${mapKey(s.domain)} ${mapKey(p.dkimKey(s.domain, s.selector))}`) : []),
    ),
  });
  files.push({
    path: RSPAMD_PATHS.antivirus,
    content: o.clamdSocket
      ? file(
          'clamav {',
          '  type = "clamav";',
          `  servers = ${quote(o.clamdSocket)};`,
          '  action = "reject";',
          `  message = '\${SCANNER}: virus found: "\${VIRUS}"';`,
          '  scan_mime_parts = true;',
          '  symbol = "CLAM_VIRUS";',
          '  log_clean = false;',
          '}',
        )
      : file('# ClamAV or its signatures are not installed: no virus scanning.', 'enabled = false;'),
  });
  return files;
}

/** A map key or value: one token, no spaces or comment marks. */
function mapKey(v: string): string {
  if (!/^[^\s#"]+$/.test(v)) throw new Error(`rspamd map entry must be one word: ${v}`);
  return v;
}

/** How to start rspamd on the rendered files (the same stock rspamd.conf, Mailroom's local.d). */
export interface RspamdLaunch {
  command: string;
  args: string[];
  /** Folders rspamd writes: they must exist and belong to `user` when started as root. */
  writableDirs: string[];
  /** Set when started as root: rspamd drops to this user (its workers must not run as root). */
  user: string | null;
}

/**
 * `rspamd -f -c /etc/rspamd/rspamd.conf` with, in local mode, `--var` for the folders under the
 * host root: LOCAL_CONFDIR (Mailroom's local.d), DBDIR, RUNDIR and LOGDIR. Stop with SIGTERM,
 * reload with SIGHUP (maps are re-read by rspamd itself when they change).
 */
export function rspamdLaunch(
  rspamd: string,
  mapPath: (systemPath: string) => string,
  local: boolean,
  asRoot: boolean,
): RspamdLaunch {
  const dirs = {
    LOCAL_CONFDIR: mapPath(RSPAMD_PATHS.localConfDir),
    DBDIR: mapPath(RSPAMD_PATHS.dbDir),
    RUNDIR: mapPath(RSPAMD_PATHS.runDir),
    LOGDIR: mapPath(RSPAMD_PATHS.logDir),
  };
  const args = ['-f', '-c', RSPAMD_PATHS.stockConf];
  if (local) for (const [k, v] of Object.entries(dirs)) args.push(`--var=${k}=${v}`);
  if (asRoot) args.push('-u', RSPAMD_USER, '-g', RSPAMD_USER);
  return {
    command: rspamd,
    args,
    writableDirs: [dirs.DBDIR, dirs.RUNDIR, dirs.LOGDIR],
    user: asRoot ? RSPAMD_USER : null,
  };
}
