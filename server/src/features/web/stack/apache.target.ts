import type { ProveResult } from '../../../apply/file-set.ts';
import type { ApplyTarget } from '../../../apply/pipeline.ts';
import { checkApacheSites, checkApacheTree, checkLogrotate } from '../../../host/apache-host.ts';
import type { Host, StagedFile } from '../../../host/host.ts';
import type { ApacheControl } from './apache-control.service.ts';
import { APACHE_PATHS } from './apache.layout.ts';
import { probeHosts } from './apache.probe.ts';
import type { WebRender } from './web-render.service.ts';
import { checkPhpPools } from '../../../host/php-fpm-host.ts';
import type { PhpFpmControl } from '../php/php-fpm-control.service.ts';

/** A PHP-FPM file (a site pool or a local master's main file) and its version. */
const PHP_FILE = /^\/etc\/php\/(\d+\.\d+)\/fpm\/(pool\.d\/)?[^/]+\.conf$/;
const phpVersionOf = (systemPath: string) => PHP_FILE.exec(systemPath)?.[1] ?? null;

export const WEB_TARGET = 'web';

/**
 * Apache as a target of the one apply pipeline. prove: `apache2 -t` on the configuration as it
 * would be after the swap (a scratch tree: live folder + staged files), and `logrotate -d` on the
 * logrotate file. reload: a graceful restart, then a probe of every changed host name on its port
 * (Host header, SNI for HTTPS): a host that does not answer as itself with this generation of its
 * file fails the reload, and the pipeline puts the last good files back and reloads again.
 * `last()` gives the render the files came from (its probes).
 */
export function apacheTarget(
  host: Host,
  control: ApacheControl,
  last: () => WebRender | null,
  php: PhpFpmControl | null = null,
): ApplyTarget {
  let lastChanges: object | null = null;
  let ranAtLastReload = false;
  return {
    name: WEB_TARGET,
    async prove(staged): Promise<ProveResult> {
      const dir = host.path(APACHE_PATHS.dir);
      const apache = staged.filter((f) => f.target.startsWith(dir + '/'));
      const render = last();
      const removed = (render?.remove ?? []).filter((p) => p.startsWith(APACHE_PATHS.dir + '/'));
      // Which staged files differ from the live ones: a change of one site is proved quickly.
      const live = await Promise.all(
        apache.map((f) => host.readFile(APACHE_PATHS.dir + f.target.slice(dir.length))),
      );
      const changed = apache.filter((f, i) => live[i] !== f.content);
      const sitesDir = host.path(APACHE_PATHS.sitesAvailable) + '/';
      const enabledDir = host.path(APACHE_PATHS.sitesEnabled) + '/';
      const onlySites =
        removed.length === 0 &&
        changed.every((f) => f.target.startsWith(sitesDir) || f.target.startsWith(enabledDir));
      const check = onlySites
        ? await checkApacheSites(
            host,
            APACHE_PATHS.dir,
            changed.filter((f) => f.target.startsWith(sitesDir)),
          )
        : await checkApacheTree(host, APACHE_PATHS.dir, apache, removed);
      if (!check.ok) return check;
      const pools = await changedPools(host, staged);
      for (const [version, files] of pools) {
        const r = await checkPhpPools(host, version, files);
        if (!r.ok) return { ok: false, checked: true, output: r.output };
      }
      const rot = staged.find((f) => f.target === host.path(APACHE_PATHS.logrotate));
      if (rot && (await host.readFile(APACHE_PATHS.logrotate)) !== rot.content) {
        const r = await checkLogrotate(host, rot);
        if (!r.ok) return { ok: false, checked: true, output: r.output };
      }
      return check;
    },
    async reload(changes) {
      // The pools first: Apache hands .php to their sockets as soon as it has reloaded.
      const versions = [
        ...new Set(
          [...changes.written, ...changes.removed].flatMap((p) => {
            const v = phpVersionOf(p);
            return v ? [v] : [];
          }),
        ),
      ];
      const fpm = php && versions.length ? await php.reload(versions) : [];
      const badFpm = fpm.filter((f) => !f.ok);
      if (badFpm.length) return badFpm;
      const r = await control.reload();
      // The pipeline calls reload again with the same changes after putting the last good files
      // back: that reload is not probed against the refused render.
      const again = lastChanges === changes;
      lastChanges = changes;
      // Apache ran at the refused reload and is gone now: the refused render took it down. Back on
      // the last good files, it is started again (system mode; local mode's supervisor does it).
      const wasRunning = ranAtLastReload;
      ranAtLastReload = r.attempted;
      if (again && wasRunning && !r.attempted && control.mode.system) {
        const started = await control.start();
        return [...fpm, { ...started, output: `${r.output}\n${started.output}` }];
      }
      if (!r.attempted || !r.ok || again) return [...fpm, r];
      const render = last();
      if (!render) return [...fpm, r];
      const changed = new Set([...changes.written, ...changes.removed]);
      const probes = [...changed].flatMap((p) => {
        const pr = render.probes.get(p);
        return pr ? [pr] : [];
      });
      const serverWide = [
        APACHE_PATHS.confAvailable,
        APACHE_PATHS.ports,
        APACHE_PATHS.main,
        `${APACHE_PATHS.sitesAvailable}/${APACHE_PATHS.defaultSite}`,
      ];
      if (serverWide.some((p) => changed.has(p)) || changes.removed.length) probes.push(render.defaultProbe);
      if (!probes.length) return [...fpm, r];
      const probe = await probeHosts(probes);
      return [...fpm, { ok: probe.ok, attempted: true, output: `${r.output}\n${probe.output}` }];
    },
  };
}

/** Staged site pools that differ from the live ones, by PHP version. */
async function changedPools(host: Host, staged: StagedFile[]): Promise<Map<string, StagedFile[]>> {
  const out = new Map<string, StagedFile[]>();
  const root = host.path('/');
  for (const f of staged) {
    const sys = '/' + f.target.slice(root.length).replace(/^\/+/, '');
    const m = PHP_FILE.exec(sys);
    if (!m || !m[2]) continue;
    if ((await host.readFile(sys)) === f.content) continue;
    out.set(m[1]!, [...(out.get(m[1]!) ?? []), f]);
  }
  return out;
}
