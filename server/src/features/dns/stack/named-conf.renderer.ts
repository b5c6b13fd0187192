import type { DnsSettings, ZoneType } from '@mailroom/contract/dns';
import type { BindLayout } from './bind.layout.ts';

export interface NamedConfPieces {
  main: string;
  /** options { … } plus the tls/http/controls statements. */
  options: string;
  logging: string;
  /** What BIND cannot do as asked, or what was left out and why. */
  notes: string[];
}

export interface TlsMaterial {
  /** Mapped paths of the certificate and key, and whether both files exist. */
  certFile: string;
  keyFile: string;
  present: boolean;
}

export interface ZoneStatement {
  domain: string;
  zoneType: ZoneType;
  primaries: string[];
}

const HEADER = '// Rendered by Mailroom from its database; edits here are overwritten.\n';
const q = (s: string) => `"${s.replace(/["\\]/g, (c) => `\\${c}`)}"`;
const list = (items: string[]) => `{ ${items.map((i) => `${i};`).join(' ')} }`;

// BIND 9.18 limits (ARM): resolver-query-timeout 301 ms .. 30 s; max-udp-size 512 .. 4096 bytes.
const QUERY_TIMEOUT_MAX_S = 30;
const UDP_SIZE_MIN = 512;
const UDP_SIZE_MAX = 4096;
const LOG_FILE_SIZE = '20m';
export const RNDC_PORT = 953;

const severity: Record<DnsSettings['logLevel'], string> = {
  debug: 'debug 1',
  info: 'info',
  warning: 'warning',
  error: 'error',
};

/** named.conf pieces from the DNS settings (BIND 9.18 vocabulary). */
export function renderNamedConf(s: DnsSettings, layout: BindLayout, tls: TlsMaterial): NamedConfPieces {
  const notes: string[] = [];
  const o: string[] = [];
  const listen = list(layout.listenOn);
  const port = layout.port ?? s.serverPort;
  if (layout.port && layout.port !== s.serverPort) {
    notes.push(
      `Mailroom runs named itself in local mode, on port ${layout.port} (MAILROOM_DNS_PORT); Server Port (${s.serverPort}) applies in system mode.`,
    );
  }
  o.push(`directory ${q(layout.workDir)};`);
  o.push(`pid-file ${q(layout.pidFile)};`);
  o.push(`session-keyfile ${q(layout.sessionKeyFile)};`);
  o.push(`hostname ${q(s.serverHostname)};`);
  o.push(`listen-on port ${port} ${listen};`);
  o.push(
    s.enableIPv6
      ? `listen-on-v6 port ${port} ${list(layout.listenOnV6 ?? ['any'])};`
      : 'listen-on-v6 { none; };',
  );
  if (s.serverProtocol !== 'both') {
    notes.push(
      `Server Protocol is ${s.serverProtocol.toUpperCase()}, but BIND always answers over both UDP and TCP (TCP is needed for large answers and transfers).`,
    );
  }

  let tlsBlock = '';
  const wantTls = s.enableDnsOverTls || s.enableDnsOverHttps;
  if (wantTls && !tls.present) {
    notes.push(
      `DNS over ${s.enableDnsOverTls ? 'TLS' : 'HTTPS'}${s.enableDnsOverTls && s.enableDnsOverHttps ? ' and HTTPS' : ''} is on, but no certificate and key were found at ${tls.certFile} and ${tls.keyFile}; the encrypted listeners are left out until they exist.`,
    );
  } else if (wantTls) {
    tlsBlock = `tls mailroom-tls {\n\tcert-file ${q(tls.certFile)};\n\tkey-file ${q(tls.keyFile)};\n};\n`;
    if (s.enableDnsOverTls) o.push(`listen-on port 853 tls mailroom-tls ${listen};`);
    if (s.enableDnsOverHttps) o.push(`listen-on port 443 tls mailroom-tls http default ${listen};`);
  }

  if (layout.authoritativeOnly) {
    // Local mode: the zones Mailroom serves, to this machine only; nothing is looked up elsewhere.
    o.push('recursion no;');
    o.push('allow-recursion { none; };');
    o.push('allow-query-cache { none; };');
    notes.push(
      `Local mode: named listens on loopback only (${[...layout.listenOn, ...(s.enableIPv6 ? (layout.listenOnV6 ?? []) : [])].join(', ')}) and answers only for its own zones, with no recursion${s.allowRecursiveQueries ? '; Allow Recursive Queries applies in system mode' : ''}.`,
    );
  } else {
    o.push(`recursion ${s.allowRecursiveQueries ? 'yes' : 'no'};`);
    if (s.allowRecursiveQueries) o.push('allow-recursion { localhost; localnets; };');
  }
  // Transfers and NOTIFY go to the listed secondaries only; with none listed, to no one.
  const secondaries = s.allowTransfer ? s.secondaryServers : [];
  if (secondaries.length) {
    o.push(`allow-transfer ${list(secondaries)};`);
    o.push('notify explicit;');
    o.push(`also-notify ${list(secondaries)};`);
  } else {
    o.push('allow-transfer { none; };');
    o.push('notify no;');
    if (s.allowTransfer) {
      notes.push(
        'Allow Zone Transfers is on, but no Secondary Servers are listed: no server may transfer the zones.',
      );
    }
  }
  o.push(`dnssec-validation ${s.enableDnssec ? 'auto' : 'no'};`);
  if (s.enableDnssec) {
    notes.push(
      'DNSSEC on means answers this server resolves are validated; the zones themselves are not signed.',
    );
  }
  o.push(`max-cache-size ${s.maxCacheSize}M;`);
  notes.push(
    `Max Cache Entries (${s.maxCacheEntries}) has no BIND equivalent; the cache is bounded by Max Cache Size (${s.maxCacheSize} MB).`,
  );
  const timeout = Math.min(s.queryTimeout, QUERY_TIMEOUT_MAX_S);
  if (timeout !== s.queryTimeout) {
    notes.push(`Query Timeout ${s.queryTimeout} s is above BIND's limit; ${QUERY_TIMEOUT_MAX_S} s is used.`);
  }
  o.push(`resolver-query-timeout ${timeout * 1000};`);
  o.push(`recursive-clients ${s.maxConcurrentQueries};`);
  o.push(`tcp-clients ${s.maxConcurrentQueries};`);
  const udp = Math.max(UDP_SIZE_MIN, Math.min(s.maxResponseSize, UDP_SIZE_MAX));
  if (udp !== s.maxResponseSize) {
    notes.push(
      `Max Response Size ${s.maxResponseSize} bytes applies to TCP; UDP answers are limited to ${udp} bytes (BIND allows ${UDP_SIZE_MIN}–${UDP_SIZE_MAX}).`,
    );
  }
  o.push(`max-udp-size ${udp};`);
  o.push(`edns-udp-size ${udp};`);
  if (s.enableCnameFlattening) {
    notes.push('CNAME flattening is not a BIND feature; a CNAME at a zone apex stays refused.');
  }
  o.push(`querylog ${s.enableQueryLogging ? 'yes' : 'no'};`);

  const options =
    HEADER +
    `options {\n${o.map((l) => `\t${l}`).join('\n')}\n};\n` +
    tlsBlock +
    (layout.controls
      ? `include ${q(layout.rndcKey)};\ncontrols {\n\tinet 127.0.0.1 port ${RNDC_PORT} allow { localhost; } keys { "rndc-key"; };\n};\n`
      : '// No control channel outside system mode.\ncontrols { };\n');

  const file = (name: string) => `file ${q(name)} versions ${s.logRetentionDays} size ${LOG_FILE_SIZE}`;
  const channels = [
    `\tchannel mailroom_main {\n\t\t${file('mailroom-named.log')};\n\t\tseverity ${severity[s.logLevel]};\n\t\tprint-time yes;\n\t\tprint-severity yes;\n\t\tprint-category yes;\n\t};`,
  ];
  const defaults = ['mailroom_main;'];
  if (s.enableErrorLogging) {
    channels.push(
      `\tchannel mailroom_errors {\n\t\t${file('mailroom-errors.log')};\n\t\tseverity error;\n\t\tprint-time yes;\n\t\tprint-category yes;\n\t};`,
    );
    defaults.push('mailroom_errors;');
  }
  const categories = [`\tcategory default { ${defaults.join(' ')} };`];
  if (s.enableQueryLogging) {
    channels.push(
      `\tchannel mailroom_queries {\n\t\t${file('mailroom-queries.log')};\n\t\tseverity info;\n\t\tprint-time yes;\n\t};`,
    );
    categories.push('\tcategory queries { mailroom_queries; };');
  }
  categories.push('\tcategory lame-servers { null; };');
  notes.push(
    `Log files (in ${layout.workDir}) rotate by size (${LOG_FILE_SIZE}); ${s.logRetentionDays} old versions are kept, as BIND has no rotation by age.`,
  );
  const logging = HEADER + `logging {\n${channels.join('\n')}\n${categories.join('\n')}\n};\n`;

  const main =
    HEADER +
    `// Include this file from /etc/bind/named.conf in place of the Debian options.\n` +
    `include ${q(layout.options)};\ninclude ${q(layout.logging)};\ninclude ${q(layout.zones)};\n`;
  return { main, options, logging, notes };
}

/** One zone statement; secondary and stub copies live in named's working directory. */
export function zoneStatement(z: ZoneStatement, layout: BindLayout): string {
  if (z.zoneType === 'primary') {
    return `zone ${q(z.domain)} { type primary; file ${q(layout.zoneFile(z.domain))}; };\n`;
  }
  return `zone ${q(z.domain)} { type ${z.zoneType}; primaries ${list(z.primaries)}; file ${q(`mailroom-${z.zoneType}-${z.domain}.db`)}; };\n`;
}

export function renderZonesConf(zones: ZoneStatement[], layout: BindLayout): string {
  let out = HEADER;
  for (const z of zones) out += zoneStatement(z, layout);
  return out;
}
