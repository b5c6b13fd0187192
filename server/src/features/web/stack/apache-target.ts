import type { ProveResult } from '../../../apply/file-set.ts';
import type { ApplyTarget } from '../../../apply/pipeline.ts';
import { checkApacheSites, checkApacheTree, checkLogrotate } from '../../../host/apache-host.ts';
import type { Host } from '../../../host/host.ts';
import type { ApacheControl } from './apache-control.ts';
import { APACHE_PATHS } from './apache-layout.ts';
import { probeHosts } from './apache-probe.ts';
import type { WebRender } from './web-render.ts';

export const WEB_TARGET = 'web';

/**
 * Apache as a target of the one apply pipeline. prove: `apache2 -t` on the configuration as it
 * would be after the swap (a scratch tree: live folder + staged files), and `logrotate -d` on the
 * logrotate file. reload: a graceful restart, then a probe of every changed host name on its port
 * (Host header, SNI for HTTPS): a host that does not answer as itself with this generation of its
 * file fails the reload, and the pipeline puts the last good files back and reloads again.
 * `last()` gives the render the files came from (its probes).
 */
export function apacheTarget(host: Host, control: ApacheControl, last: () => WebRender | null): ApplyTarget {
  let lastChanges: object | null = null;
  return {
    name: WEB_TARGET,
    async prove(staged): Promise<ProveResult> {
      const dir = host.path(APACHE_PATHS.dir);
      const apache = staged.filter((f) => f.target.startsWith(dir + '/'));
      const render = last();
      const removed = render?.remove ?? [];
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
      const rot = staged.find((f) => f.target === host.path(APACHE_PATHS.logrotate));
      if (rot && (await host.readFile(APACHE_PATHS.logrotate)) !== rot.content) {
        const r = await checkLogrotate(host, rot);
        if (!r.ok) return { ok: false, checked: true, output: r.output };
      }
      return check;
    },
    async reload(changes) {
      const r = await control.reload();
      // The pipeline calls reload again with the same changes after putting the last good files
      // back: that reload is not probed against the refused render.
      const again = lastChanges === changes;
      lastChanges = changes;
      if (!r.attempted || !r.ok || again) return [r];
      const render = last();
      if (!render) return [r];
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
      if (!probes.length) return [r];
      const probe = await probeHosts(probes);
      return [{ ok: probe.ok, attempted: true, output: `${r.output}\n${probe.output}` }];
    },
  };
}
