import type { LoginMfaChallenge, MfaVerifyRequest, RecoveryRequestInput } from '@mailroom/contract/auth';

/**
 * The second step of a sign-in, given by the MFA feature (wired in app.ts). Without it a right
 * password opens a session at once.
 */
export interface SecondStep {
  afterPassword(
    admin: { id: number; email: string },
    meta: SignInMeta,
  ): Promise<
    | { kind: 'session'; scope: 'enrol' | null; absoluteMs: number }
    | { kind: 'challenge'; answer: LoginMfaChallenge }
  >;
  verify(
    body: MfaVerifyRequest,
    meta: SignInMeta,
  ): Promise<{
    admin: { id: number; email: string };
    absoluteMs: number;
    trusted?: { token: string; maxAgeS: number };
  }>;
  webauthnOptions(challenge: string): Promise<Record<string, unknown>>;
  /**
   * After a full session was opened for an account without a factor: if MFA became required for it
   * meanwhile (mfa/enable or a policy saved between the check and the session), the session is
   * limited to enrolment now, as the change's own sweep did for the sessions it found.
   */
  sessionOpened(adminId: number): Promise<void>;
  recover(body: RecoveryRequestInput, meta: SignInMeta): Promise<void>;
}

export interface SignInMeta {
  ip: string | null;
  userAgent: string | null;
  cookie: string | undefined;
}

/**
 * The sign-in's guess throttle (features/auth/login-throttle.ts), given by app.ts to every other
 * place that checks a password: re-authentication and the "current password" of a password change
 * count in the same buckets as sign-in, so the free guesses are shared, not multiplied.
 */
export interface GuessThrottle {
  /** Reserves one guess for `email` from `ip`: its ids to release on success, or the wait in seconds. */
  reserve(
    email: string,
    ip: string | null,
  ): Promise<{ wait: 0; ids: number[] } | { wait: number; ids?: undefined }>;
  /** The password was right: the reservation and the earlier failures of the pair are forgotten. */
  success(email: string, ip: string | null, ids: number[]): Promise<void>;
}
