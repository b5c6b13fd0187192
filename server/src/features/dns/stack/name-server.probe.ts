import { promises as dns } from 'node:dns';

// Answers that prove a name server replied, whatever it said.
const ANSWERED = new Set([
  'ENOTFOUND',
  'ENODATA',
  'EREFUSED',
  'ESERVFAIL',
  'ENOTIMP',
  'EFORMERR',
  'EBADRESP',
  'EBADNAME',
]);

/**
 * Asks the local name server for a SOA on its configured port. Any DNS answer, even a refusal,
 * means it is up; a timeout or a closed port means it is not.
 */
export async function probeNameServer(
  port: number,
  name: string,
  timeoutMs = 1500,
): Promise<'online' | 'offline'> {
  const resolver = new dns.Resolver({ timeout: timeoutMs, tries: 1 });
  resolver.setServers([`127.0.0.1:${port}`]);
  try {
    await resolver.resolveSoa(name);
    return 'online';
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code ?? '';
    return ANSWERED.has(code) ? 'online' : 'offline';
  }
}
