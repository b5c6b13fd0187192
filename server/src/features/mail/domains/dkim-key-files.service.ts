import type { Host } from '../../../host/host.ts';
import {
  filePresence,
  removeFileIfAny,
  userIds,
  writePrivateKeyFile,
  type UserIds,
} from '../../../host/private-key-files.ts';
import { RSPAMD_PATHS, RSPAMD_USER } from '../stack/rspamd.renderer.ts';

/**
 * DKIM private keys live only in files the signer reads: never in the database, which the mail
 * daemons can read (Postfix and Dovecot open the SQLite file; on PostgreSQL their role could be
 * granted too much). As root the key belongs to the signer's user (`_rspamd`) with mode 0600;
 * otherwise it stays the writer's with mode 0640 and the signer's group when the writer may set
 * it (a member of `_rspamd`, or a setgid key folder), else 0600 (rspamd run as the same user).
 */

/** The signer's uid and gid from the machine's own user database, or null when absent. */
export async function signerIds(): Promise<UserIds | null> {
  return userIds(RSPAMD_USER);
}

export const dkimKeyPath = (host: Host, domain: string, selector: string) =>
  host.path(RSPAMD_PATHS.dkimKey(domain, selector));

/** Writes one private key atomically, owned and moded for the signer before it takes its name. */
export async function writeDkimKeyFile(
  host: Host,
  domain: string,
  selector: string,
  pem: string,
): Promise<void> {
  await writePrivateKeyFile(dkimKeyPath(host, domain, selector), pem, RSPAMD_USER);
}

/** Whether the key file is there: true/false, or null when this process may not even look. */
export async function dkimKeyFileExists(
  host: Host,
  domain: string,
  selector: string,
): Promise<boolean | null> {
  return filePresence(dkimKeyPath(host, domain, selector));
}

export async function removeDkimKeyFile(host: Host, domain: string, selector: string): Promise<void> {
  await removeFileIfAny(dkimKeyPath(host, domain, selector));
}
