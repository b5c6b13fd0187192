import net from 'node:net';
import path from 'node:path';
import type { MailFilterStatus, MailSettings } from '@mailroom/contract/mail';
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.ts';
import { firstClosedFolder, makeDaemonFolder } from '../../../host/daemon-folders.ts';
import { folderNames } from '../../../host/disk-files.ts';
import type { Host } from '../../../host/host.ts';
import { withScratchDir, writeScratchFile } from '../../../host/scratch.ts';
import type { DaemonState, ServiceControl } from '../../../host/service-control.ts';
import { sharedReading } from '../../../host/shared-reading.ts';
import { currentDkimKeys } from '../domains/dkim.service.ts';
import { dkimKeyPath, signerIds } from '../domains/dkim-key-files.service.ts';
import {
  renderRspamd,
  RSPAMD_PATHS,
  RSPAMD_USER,
  type RspamdLaunch,
  rspamdLaunch,
  type RspamdPaths,
} from './rspamd.renderer.ts';

/** Where the filter listens and, in local mode, which name server it asks. */
export interface FilterTarget {
  milterPort: number;
  /** Mailroom's own DNS port (local mode only: rspamd asks nothing else). */
  dnsPort: number;
}

/** Whether the host root is a data folder (local mode) or the machine itself. */
const isLocal = (host: Host) => path.resolve(host.root) !== '/';

export const milterAddress = (t: FilterTarget) => `127.0.0.1:${t.milterPort}`;

/** Debian's ClamAV: the daemon's socket and the signature folder freshclam fills. */
const CLAMAV = { daemon: 'clamd', signatures: '/var/lib/clamav', socket: RSPAMD_PATHS.clamdSocket };

export interface VirusScanSupport {
  available: boolean;
  detail: string;
}

/** ClamAV can scan only with its daemon and both signature databases (main and daily) present. */
export async function virusScanSupport(host: Host): Promise<VirusScanSupport> {
  if (!(await host.which(CLAMAV.daemon)))
    return {
      available: false,
      detail:
        'Virus scanning is not available: ClamAV is not installed (Debian package: clamav-daemon). Mail is not scanned for viruses.',
    };
  const names = await folderNames(CLAMAV.signatures); // none without a signature folder
  const has = (db: string) => names.some((n) => n === `${db}.cvd` || n === `${db}.cld`);
  if (!has('main') || !has('daily'))
    return {
      available: false,
      detail: `Virus scanning is not available: ClamAV's signatures are missing in ${CLAMAV.signatures} (run freshclam). Mail is not scanned for viruses.`,
    };
  return { available: true, detail: 'ClamAV and its signatures are installed: rspamd scans mail with it.' };
}

/** The filter runs when anything needs it: spam filtering, DKIM signing, or a usable virus scan. */
export const filterWanted = (s: MailSettings, virus: VirusScanSupport) =>
  s.enableSpamFilter || s.enableDKIM || (s.enableVirusScan && virus.available);

export function rspamdPaths(host: Host, t: FilterTarget): RspamdPaths {
  return {
    dkimSelectors: host.path(RSPAMD_PATHS.dkimSelectors),
    dkimPaths: host.path(RSPAMD_PATHS.dkimPaths),
    dkimKey: (domain, selector) => dkimKeyPath(host, domain, selector),
    local: isLocal(host)
      ? {
          normalSocket: host.path(`${RSPAMD_PATHS.runDir}/normal.sock`),
          controllerSocket: host.path(`${RSPAMD_PATHS.runDir}/controller.sock`),
          nameserver: `127.0.0.1:${t.dnsPort}`,
        }
      : null,
  };
}

/** rspamd's local.d files and DKIM maps for these settings (private keys are written apart). */
export async function rspamdFiles(
  db: Kysely<Database>,
  host: Host,
  s: MailSettings,
  t: FilterTarget,
): Promise<{ path: string; content: string }[]> {
  const virus = await virusScanSupport(host);
  const signers = s.enableDKIM ? await currentDkimKeys(db) : [];
  return renderRspamd(
    {
      spam: s.enableSpamFilter,
      dkim: s.enableDKIM,
      milter: milterAddress(t),
      clamdSocket: s.enableVirusScan && virus.available ? CLAMAV.socket : null,
    },
    rspamdPaths(host, t),
    signers,
  );
}

/** True when something accepts a TCP connection at host:port within the time limit. */
export function probePort(port: number, hostName = '127.0.0.1', timeoutMs = 1000): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host: hostName, port });
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(timeoutMs, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}

/** Whether a program is installed: looked up at most once a second per process. */
const installed = (host: Host, cmd: string) =>
  sharedReading(`which:${cmd}:${process.env.PATH ?? ''}`, () => host.which(cmd)).get();

/**
 * The filter's state: from ServiceControl when one runs the daemons, else by probing the milter
 * port (a small stand-in the supervisor replaces). `wanted` false answers 'off'.
 */
export async function filterState(
  host: Host,
  t: FilterTarget,
  wanted: boolean,
  services?: ServiceControl,
): Promise<Pick<DaemonState, 'detail'> & { state: MailFilterStatus['state'] }> {
  if (!wanted)
    return { state: 'off', detail: 'Spam filtering and DKIM signing are off: no mail filter runs.' };
  if (!(await installed(host, 'rspamd')))
    return {
      state: 'not-installed',
      detail:
        'rspamd is not installed (Debian package: rspamd): Postfix defers mail (4xx) until the filter runs.',
    };
  if (services) {
    const st = (await services.states()).find((d) => d.name === 'rspamd');
    if (st) return { state: st.state, detail: st.detail };
  }
  const address = milterAddress(t);
  return (await probePort(t.milterPort))
    ? { state: 'running', detail: `rspamd answers on ${address} (milter).` }
    : {
        state: 'stopped',
        detail: `rspamd is not answering on ${address}: Postfix defers mail (4xx) until it runs. Start it (systemctl start rspamd; in local mode Mailroom starts it).`,
      };
}

/** What Settings Status shows about the filter and virus scanning. */
export async function mailFilterStatus(
  host: Host,
  s: MailSettings,
  t: FilterTarget,
  services?: ServiceControl,
): Promise<MailFilterStatus> {
  // Status reads share one look at the machine a second (issue 22 #21), never one per request.
  const virus = await sharedReading(`virus-scan:${host.root}`, () => virusScanSupport(host)).get();
  const { state, detail } = await filterState(host, t, filterWanted(s, virus), services);
  const active = s.enableVirusScan && virus.available;
  return {
    state,
    detail,
    virusScan: {
      available: virus.available,
      active,
      detail: virus.available && !s.enableVirusScan ? 'Virus scanning is off.' : virus.detail,
    },
  };
}

/**
 * How to start rspamd on the rendered files (for the supervisor): the command, and `prepare()`
 * which creates the folders rspamd writes and hands them to its user when run as root.
 * Stop: SIGTERM to the pid. Reload: SIGHUP (changed DKIM maps need none: rspamd re-reads them).
 */
export async function rspamdLaunchFor(
  host: Host,
): Promise<(RspamdLaunch & { prepare(): Promise<void> }) | null> {
  const rspamd = await host.which('rspamd');
  if (!rspamd) return null;
  const asRoot = process.getuid?.() === 0;
  const launch = rspamdLaunch(rspamd, (p) => host.path(p), isLocal(host), asRoot);
  return {
    ...launch,
    async prepare() {
      const ids = asRoot ? await signerIds() : null;
      // Its workers run as _rspamd: every folder above the host root must let others pass.
      if (ids) {
        const dir = await firstClosedFolder(host.root, ids.uid);
        if (dir)
          throw new Error(
            `rspamd runs as ${RSPAMD_USER} and cannot enter ${dir}: allow it to pass (chmod o+x ${dir})`,
          );
      }
      for (const dir of launch.writableDirs) await makeDaemonFolder(dir, ids);
    },
  };
}

/**
 * Proves the staged rspamd files with `rspamadm configtest` on Debian's stock rspamd.conf, the
 * staged `local.d` copied under their final names into a scratch LOCAL_CONFDIR. Null when
 * rspamadm is not installed or no rspamd file is staged.
 */
export async function checkStagedRspamd(
  host: Host,
  staged: { target: string; staged: string; content: string }[],
): Promise<{ ok: boolean; output: string } | null> {
  const localD = path.dirname(host.path(RSPAMD_PATHS.proxy));
  const ours = staged.filter((f) => path.dirname(f.target) === localD);
  if (!ours.length) return null;
  const rspamadm = await host.which('rspamadm');
  if (!rspamadm)
    return { ok: true, output: 'rspamadm not installed (Debian package: rspamd): filter files not checked' };
  return withScratchDir('mailroom-rspamd-check-', async (tmp) => {
    for (const f of ours)
      await writeScratchFile(path.join(tmp, 'local.d', path.basename(f.target)), f.content);
    const r = await host.run(
      rspamadm,
      [
        `--var=LOCAL_CONFDIR=${tmp}`,
        `--var=DBDIR=${tmp}`,
        `--var=RUNDIR=${tmp}`,
        `--var=LOGDIR=${tmp}`,
        'configtest',
        '-c',
        RSPAMD_PATHS.stockConf,
      ],
      { timeoutMs: 60_000 },
    );
    const ok = r.code === 0 && /syntax OK/.test(r.stdout);
    return {
      ok,
      output: ok
        ? 'rspamadm configtest: filter files parsed'
        : `rspamadm configtest: ${(r.stderr.trim() || r.stdout.trim() || `exit ${r.code}`).slice(-2000)}`,
    };
  });
}
