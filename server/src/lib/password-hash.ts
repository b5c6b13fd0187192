import { hash, verify } from '@node-rs/argon2';

/** argon2id at OWASP's floor (19 MiB, t=2), prefixed the way Dovecot reads it. */
// `algorithm: 2` is Algorithm.Argon2id (a const enum, which isolated modules cannot import).
export const ARGON2_OPTIONS = { algorithm: 2, memoryCost: 19456, timeCost: 2, parallelism: 1 };
const PREFIX = '{ARGON2ID}';

export async function hashPassword(password: string): Promise<string> {
  return PREFIX + (await hash(password, ARGON2_OPTIONS));
}

export async function verifyPassword(stored: string, password: string): Promise<boolean> {
  const encoded = stored.startsWith(PREFIX) ? stored.slice(PREFIX.length) : stored;
  try {
    return await verify(encoded, password);
  } catch {
    return false;
  }
}

// Verified against when the account does not exist, so a wrong email costs the same time.
let dummy: Promise<string> | null = null;
export function dummyHash(): Promise<string> {
  dummy ??= hashPassword('not-a-real-password-' + Date.now());
  return dummy;
}
