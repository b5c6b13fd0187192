import { Secret, TOTP } from 'otpauth';

/** RFC 6238 as the spec's authenticator apps use it: SHA-1, 30-second steps, 6 digits. */
export const TOTP_PERIOD_S = 30;

export function newTotpSecret(): string {
  return new Secret({ size: 20 }).base32;
}

export function totpFor(secret: string, label: string): TOTP {
  return new TOTP({
    issuer: 'Mailroom',
    label,
    algorithm: 'SHA1',
    digits: 6,
    period: TOTP_PERIOD_S,
    secret: Secret.fromBase32(secret),
  });
}

/** The time step the code belongs to (now, one before or one after), or null when it matches none. */
export function matchStep(secret: string, code: string, now: number): number | null {
  if (!/^\d{6}$/.test(code)) return null;
  const delta = totpFor(secret, 'x').validate({ token: code, timestamp: now, window: 1 });
  if (delta === null) return null;
  return Math.floor(now / 1000 / TOTP_PERIOD_S) + delta;
}
