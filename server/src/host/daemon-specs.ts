import type { Config } from '../config.ts';
import type { Host } from './host.ts';
import type { DaemonName } from './service-control.ts';
import type { DaemonSpec } from './supervisor.ts';

/** The Debian package that ships each daemon, named when it is missing. */
export const DAEMON_PACKAGES: Record<DaemonName, string> = {
  postfix: 'postfix',
  dovecot: 'dovecot-core',
  rspamd: 'rspamd',
  named: 'bind9',
};

const ORDER: DaemonName[] = ['postfix', 'dovecot', 'rspamd', 'named'];

export const LOOPBACK = '127.0.0.1';

export interface SpecOrMissing {
  name: DaemonName;
  /** Null when the program is not installed. */
  spec: DaemonSpec | null;
  /** The command an operator would run by hand (shown when Mailroom does not run it). */
  command: string;
}

export interface DaemonSpecOptions {
  rspamdMilterPort?: number;
  asRoot?: boolean;
}

/**
 * Builds the specs of the daemons one feature owns, from the files it renders under the host
 * root. The mail area registers Postfix, Dovecot and rspamd; the DNS area registers named.
 */
export type DaemonSpecBuilder = (
  host: Host,
  config: Pick<Config, 'ports'>,
  opts: DaemonSpecOptions,
) => Promise<SpecOrMissing[]>;

const builders = new Map<string, DaemonSpecBuilder>();

/**
 * A feature's daemons, registered once when the app's modules load (before any service control
 * is made): host/ runs and observes them without knowing where a feature keeps its files.
 */
export function registerDaemonSpecs(owner: string, build: DaemonSpecBuilder): void {
  builders.set(owner, build);
}

/** A TCP readiness probe on the loopback address (optionally waiting for a greeting). */
export const tcpReady = (port: number, greeting?: string) => ({
  tcp: { host: LOOPBACK, port, ...(greeting ? { greeting } : {}) },
});

/**
 * How Mailroom runs each registered daemon from the rendered files in local mode, in a fixed
 * order (Postfix, Dovecot, rspamd, named).
 */
export async function daemonSpecs(
  host: Host,
  config: Pick<Config, 'ports'>,
  opts: DaemonSpecOptions = {},
): Promise<SpecOrMissing[]> {
  const all = (await Promise.all([...builders.values()].map((b) => b(host, config, opts)))).flat();
  return all.sort((a, b) => ORDER.indexOf(a.name) - ORDER.indexOf(b.name));
}
