import path from 'node:path';
import type { Host } from '../../../host/host.ts';
import { withScratchDir, writeScratchFile } from '../../../host/scratch.ts';

export interface BindCheck {
  ok: boolean;
  /** False when the checker program is missing: files are written unproved and the zone is pending. */
  checked: boolean;
  output: string;
}

export const CHECKER_MISSING =
  'named-checkconf was not found (Debian package bind9-utils); the files were written without being checked.';

/**
 * Proves configuration text with the real `named-checkconf`. The text is a scratch file (not a
 * rendered one) so it can point at staged files. `loadZones` (-z) also loads every primary zone it
 * names, with named's own in-zone integrity checks.
 */
export async function checkNamedConf(host: Host, text: string, loadZones: boolean): Promise<BindCheck> {
  const bin = await host.which('named-checkconf');
  if (!bin) return { ok: true, checked: false, output: CHECKER_MISSING };
  return withScratchDir('mailroom-bind-check-', async (dir) => {
    const file = path.join(dir, 'check.conf');
    await writeScratchFile(file, text, 0o600);
    const res = await host.run(bin, [...(loadZones ? ['-z'] : []), file], { timeoutMs: 600_000 });
    const output = `${res.stdout}${res.stderr}`.split(file).join('named.conf').trim();
    return { ok: res.code === 0, checked: true, output };
  });
}

/** A minimal configuration that loads the given zone files, for `checkNamedConf(…, true)`. */
export function zoneCheckConf(workDir: string, zones: { domain: string; file: string }[]): string {
  const q = (s: string) => `"${s.replace(/["\\]/g, (c) => `\\${c}`)}"`;
  let out = `options { directory ${q(workDir)}; };\n`;
  for (const z of zones) out += `zone ${q(z.domain)} { type primary; file ${q(z.file)}; };\n`;
  return out;
}

/** Keeps the checker's lines about problems, dropping the "loaded serial" lines of good zones. */
export function problemLines(output: string): string {
  return output
    .split('\n')
    .filter((l) => l.trim() !== '' && !/: loaded serial \d+$/.test(l) && !l.startsWith('Command failed:'))
    .join('\n');
}
