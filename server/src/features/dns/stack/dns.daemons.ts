import path from 'node:path';
import type { Config } from '../../../config.ts';
import { type SpecOrMissing, tcpReady as tcp } from '../../../host/daemon-specs.ts';
import type { Host } from '../../../host/host.ts';
import { BIND_SYSTEM_PATHS } from './bind.layout.ts';

/** How Mailroom runs named from the rendered files in local mode (a foreground child). */
export async function dnsDaemonSpecs(host: Host, config: Pick<Config, 'ports'>): Promise<SpecOrMissing[]> {
  const p = (s: string) => host.path(s);
  const named = await host.which('named');
  const namedConf = p(BIND_SYSTEM_PATHS.main);
  const out: SpecOrMissing[] = [];
  out.push({
    name: 'named',
    command: `named -c ${namedConf}`,
    spec: named
      ? {
          name: 'named',
          program: named,
          // -f: foreground. Local mode has no rndc channel (controls { }), so reloads are SIGHUP.
          args: ['-f', '-c', namedConf],
          configPath: namedConf,
          ready: [tcp(config.ports.dns)],
          pidFile: p(BIND_SYSTEM_PATHS.pidFile),
          folders: [path.dirname(p(BIND_SYSTEM_PATHS.pidFile)), p(BIND_SYSTEM_PATHS.workDir)],
          reload: { signal: 'SIGHUP' },
          hint: `\`named-checkconf ${namedConf}\` checks the files; named logs in ${p(BIND_SYSTEM_PATHS.workDir)}.`,
        }
      : null,
  });
  return out;
}
