import { runCommand } from '../../../host/run-command.ts';

const EVERY_MS = 15_000;
const cache = new Map<string, { at: number; value: Promise<number | null> }>();

/**
 * Messages in the Postfix queue (`postqueue -j`: one JSON line per message), null when it cannot
 * be read. One reading per 15 s per configuration folder, shared by the alert engine and the
 * dashboard's status (never a command per request).
 */
export function postfixQueueSize(configDir: string) {
  return (): Promise<number | null> => {
    const hit = cache.get(configDir);
    if (hit && Date.now() - hit.at < EVERY_MS) return hit.value;
    const value = (async () => {
      try {
        const { stdout } = await runCommand('postqueue', ['-c', configDir, '-j']);
        return stdout.split('\n').filter((l) => l.startsWith('{')).length;
      } catch {
        return null;
      }
    })();
    cache.set(configDir, { at: Date.now(), value });
    return value;
  };
}
