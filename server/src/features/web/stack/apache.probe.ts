import http from 'node:http';
import https from 'node:https';
import type { TLSSocket } from 'node:tls';
import { PROBE_HEADER, PROBE_PATH, type VhostProbe } from '../vhosts/vhost-file.renderer.ts';

export interface ProbeAnswer {
  status: number;
  token: string | null;
  /** SHA-256 fingerprint of the certificate presented (HTTPS). */
  fingerprint: string | null;
}

/** One request to the probe path with this Host (and SNI); null when nothing answered. */
export function probeOnce(
  address: string,
  port: number,
  name: string,
  tls: boolean,
  timeoutMs = 2000,
): Promise<ProbeAnswer | null> {
  return new Promise((resolve) => {
    const opts = {
      host: address,
      port,
      path: PROBE_PATH,
      method: 'GET',
      headers: { host: name, connection: 'close' },
      timeout: timeoutMs,
      agent: false as const,
    };
    const done = (res: http.IncomingMessage) => {
      const sock = res.socket as TLSSocket;
      const cert = tls && typeof sock.getPeerCertificate === 'function' ? sock.getPeerCertificate() : null;
      const token = res.headers[PROBE_HEADER.toLowerCase()];
      res.resume();
      resolve({
        status: res.statusCode ?? 0,
        token: typeof token === 'string' ? token : null,
        fingerprint: cert && 'fingerprint256' in cert ? cert.fingerprint256 : null,
      });
    };
    const req = tls
      ? https.request({ ...opts, servername: name, rejectUnauthorized: false }, done)
      : http.request(opts, done);
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.on('error', () => resolve(null));
    req.end();
  });
}

/** Between two probes of a name that did not answer as itself yet (a probe is one small request). */
const PROBE_RETRY_MS = 10;

export interface ProbeResult {
  ok: boolean;
  output: string;
}

/**
 * After a reload: every name of every changed host must answer on its port as that host, with this
 * generation of its file (the graceful restart has taken), and HTTPS with the chosen certificate.
 * Retries until `deadlineMs`; says which name answered what.
 */
export async function probeHosts(probes: VhostProbe[], deadlineMs = 5000): Promise<ProbeResult> {
  const until = Date.now() + deadlineMs;
  const lines: string[] = [];
  let ok = true;
  for (const p of probes) {
    for (const t of p.targets) {
      for (const name of p.names) {
        let last: ProbeAnswer | null = null;
        for (;;) {
          last = await probeOnce(p.address, t.port, name, t.tls);
          const good =
            last !== null &&
            last.status === 410 &&
            last.token === p.token &&
            (!t.tls || p.fingerprint === null || last.fingerprint === p.fingerprint);
          if (good) break;
          if (Date.now() > until) break;
          // A graceful restart serves the new files as soon as its new children run: asked
          // again soon, the host's answer is seen within a few ms of that, not up to 50 ms after.
          await new Promise((r) => setTimeout(r, PROBE_RETRY_MS));
        }
        const url = `${t.tls ? 'https' : 'http'}://${name}:${t.port}${PROBE_PATH}`;
        if (
          last &&
          last.status === 410 &&
          last.token === p.token &&
          (!t.tls || p.fingerprint === null || last.fingerprint === p.fingerprint)
        ) {
          lines.push(`probe ${url}: answered by ${p.domain}`);
        } else {
          ok = false;
          lines.push(
            `probe ${url}: ${
              last === null
                ? 'no answer'
                : last.token !== p.token
                  ? `answered ${last.status} ${last.token ? `as ${last.token.split(';')[0]} (another generation or host)` : 'without being this host'}`
                  : t.tls && last.fingerprint !== p.fingerprint
                    ? `presented another certificate (${last.fingerprint ?? 'none'})`
                    : `answered ${last.status}`
            }`,
          );
        }
      }
    }
  }
  return { ok, output: lines.join('\n') };
}
