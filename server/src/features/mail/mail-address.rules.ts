import { DOMAIN_RE } from '@mailroom/contract/validators';

/** Splits a stored (lower-cased) address into local part and domain. */
export function splitAddress(email: string): { local: string; domain: string } {
  const at = email.lastIndexOf('@');
  return { local: email.slice(0, at), domain: email.slice(at + 1) };
}

/** A hosted address needs a real domain name (it becomes a folder and a Postfix domain). */
export const isHostedDomain = (domain: string) => DOMAIN_RE.test(domain);

/**
 * A local part as a folder name: anything but [a-z0-9._+-] is %-encoded, and so is a leading
 * dot, so no address can name `..`, a hidden folder or a path.
 */
export function folderName(local: string): string {
  let out = '';
  for (const ch of local) {
    if (/[a-z0-9._+-]/.test(ch)) out += ch;
    else for (const b of Buffer.from(ch, 'utf8')) out += '%' + b.toString(16).toUpperCase().padStart(2, '0');
  }
  return out.startsWith('.') ? '%2E' + out.slice(1) : out;
}

/** `<domain>/<local folder>/`, relative to the mail root. */
export const maildirOf = (email: string) => {
  const { local, domain } = splitAddress(email);
  return `${domain}/${folderName(local)}/`;
};

/** Bounds of a case-folded prefix search, usable as an index range on bytewise-sorted text. */
export function prefixRange(q: string): [string, string] {
  const lo = q.trim().toLowerCase();
  return [lo, lo + '\u{10FFFF}'];
}

/** Unique-key violation on either database. */
export function isUniqueViolation(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY' || code === '23505';
}
