import { createPublicKey } from 'node:crypto';

/** A domain's DKIM key as the database keeps it: the public half only. */
export interface DkimKeyRow {
  domain: string;
  selector: string;
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
