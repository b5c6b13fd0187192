import { createPublicKey } from 'node:crypto';
import { MANAGED_HEADER } from './mail-paths.ts';

export interface DkimKeyRow {
  domain: string;
  selector: string;
  private_key: string;
  public_key: string;
}

/** The selector Mailroom signs with: TXT at `mail._domainkey.<domain>`. */
export const DKIM_SELECTOR = 'mail';

/** `v=DKIM1; k=rsa; p=<base64 DER SubjectPublicKeyInfo>` from a PEM public key. */
export function dkimTxt(publicKeyPem: string): string {
  const der = createPublicKey(publicKeyPem).export({ type: 'spki', format: 'der' });
  return `v=DKIM1; k=rsa; p=${der.toString('base64')}`;
}

export const dkimRecordName = (domain: string, selector: string) => `${selector}._domainkey.${domain}`;

/** OpenDKIM KeyTable and SigningTable (refile) for the given keys. */
export function renderDkimTables(
  keys: DkimKeyRow[],
  keyPath: (k: DkimKeyRow) => string,
): { keyTable: string; signingTable: string } {
  const keyTable = [MANAGED_HEADER];
  const signingTable = [MANAGED_HEADER];
  for (const k of keys) {
    const name = dkimRecordName(k.domain, k.selector);
    keyTable.push(`${name} ${k.domain}:${k.selector}:${keyPath(k)}`);
    signingTable.push(`*@${k.domain} ${name}`);
  }
  return { keyTable: keyTable.join('\n') + '\n', signingTable: signingTable.join('\n') + '\n' };
}
