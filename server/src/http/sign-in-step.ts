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
  recover(body: RecoveryRequestInput, meta: SignInMeta): Promise<void>;
}

export interface SignInMeta {
  ip: string | null;
  userAgent: string | null;
  cookie: string | undefined;
}
