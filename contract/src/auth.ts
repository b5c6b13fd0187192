import { z } from 'zod';
import { OkResponse } from './common.ts';
import { defineRoute } from './route.ts';
import { emailField, passwordField } from './validators.ts';

export const LoginRequest = z.object({
  email: emailField('Email'),
  password: passwordField('Password', 6),
});
export type LoginRequest = z.infer<typeof LoginRequest>;

/** Ways to pass the second step of a sign-in. */
export const MFA_METHODS = ['totp', 'backup_code', 'webauthn', 'email_code'] as const;
export const MfaMethod = z.enum(MFA_METHODS, { error: `method must be one of ${MFA_METHODS.join(', ')}` });
export type MfaMethod = z.infer<typeof MfaMethod>;

/** A session: `enrol_required` when the account must enrol a second factor before anything else. */
export const LoginSession = z.object({
  success: z.boolean(),
  api_key: z.string(),
  email: z.string(),
  enrol_required: z.boolean().optional(),
  /** 'mailbox': a mailbox user, whose console is only /account. */
  kind: z.enum(['admin', 'mailbox']).optional(),
});
export type LoginSession = z.infer<typeof LoginSession>;

/** The password was right and a second factor is needed: finish with /auth/mfa/verify. */
export const LoginMfaChallenge = z.object({
  success: z.literal(false),
  mfa_required: z.literal(true),
  email: z.string(),
  challenge: z.string(),
  methods: z.array(MfaMethod),
  /** Seconds the challenge stays valid. */
  expires_in: z.number().int(),
});
export type LoginMfaChallenge = z.infer<typeof LoginMfaChallenge>;

export const LoginResponse = z.union([LoginSession, LoginMfaChallenge]);
export type LoginResponse = z.infer<typeof LoginResponse>;

export const MfaVerifyRequest = z.object({
  challenge: z.string().min(1, 'challenge is required').max(200),
  method: MfaMethod,
  /** The TOTP or backup code (TOTP, backup_code). */
  code: z.string().trim().min(1, 'Code is required').max(64, 'Code must be at most 64').optional(),
  /** The authenticator's answer (webauthn): the JSON of @simplewebauthn/browser's startAuthentication. */
  credential: z.record(z.string(), z.unknown()).optional(),
  /** Remember this browser for the account (when the policy allows trusted devices). */
  trust_device: z.boolean().optional(),
});
export type MfaVerifyRequest = z.infer<typeof MfaVerifyRequest>;

export const MfaWebauthnOptionsRequest = z.object({ challenge: z.string().min(1).max(200) });
/** Where the e-mail code went, partly hidden (a verified recovery address, or the mailbox itself). */
export const MfaEmailCodeSent = z.object({ success: z.literal(true), sentTo: z.string() });
/** PublicKeyCredentialRequestOptionsJSON for @simplewebauthn/browser. */
export const WebauthnOptions = z.record(z.string(), z.unknown());

export const RecoveryRequestInput = z.object({
  email: emailField('Email'),
  requestType: z.enum(['Device Lost', 'Backup Codes Exhausted', 'Account Lockout'], {
    error: 'requestType must be one of Device Lost, Backup Codes Exhausted, Account Lockout',
  }),
  reason: z.string().trim().min(1, 'Reason is required').max(500, 'Reason must be at most 500'),
});
export type RecoveryRequestInput = z.infer<typeof RecoveryRequestInput>;

export const AuthStatusResponse = z.object({
  authenticated: z.boolean(),
  email: z.string().optional(),
  /** 'admin' or 'domain-admin' (who manages only `domains`). */
  role: z.enum(['admin', 'domain-admin']).optional(),
  domains: z.array(z.string()).optional(),
  /** 'mailbox': a mailbox user, who reaches only /account. */
  kind: z.enum(['admin', 'mailbox']).optional(),
});
export type AuthStatusResponse = z.infer<typeof AuthStatusResponse>;

export const authRoutes = {
  login: defineRoute({
    method: 'POST',
    base: '/auth',
    path: 'login',
    summary: 'Sign in; answers the session key',
    tags: ['auth'],
    body: LoginRequest,
    response: LoginResponse,
    public: true,
  }),
  mfaVerify: defineRoute({
    method: 'POST',
    base: '/auth',
    path: 'mfa/verify',
    summary: 'Second step of a sign-in: a TOTP code, a backup code or a passkey',
    tags: ['auth'],
    body: MfaVerifyRequest,
    response: LoginSession,
    public: true,
  }),
  mfaEmailCode: defineRoute({
    method: 'POST',
    base: '/auth',
    path: 'mfa/email-code',
    summary: 'Second step of a sign-in: mail a 6-digit code (10 minutes, once) through the local mail server',
    tags: ['auth'],
    body: MfaWebauthnOptionsRequest,
    response: MfaEmailCodeSent,
    public: true,
  }),
  mfaWebauthnOptions: defineRoute({
    method: 'POST',
    base: '/auth',
    path: 'mfa/webauthn-options',
    summary: 'Passkey options for the second step of a sign-in',
    tags: ['auth'],
    body: MfaWebauthnOptionsRequest,
    response: WebauthnOptions,
    public: true,
  }),
  mfaRecovery: defineRoute({
    method: 'POST',
    base: '/auth',
    path: 'mfa/recovery',
    summary: 'Ask the administrators to recover access ("Lost my device")',
    tags: ['auth'],
    body: RecoveryRequestInput,
    response: OkResponse,
    public: true,
  }),
  logout: defineRoute({
    method: 'POST',
    base: '/auth',
    path: 'logout',
    summary: 'Revoke the current session',
    tags: ['auth'],
    response: OkResponse,
    public: true,
    access: 'self',
  }),
  status: defineRoute({
    method: 'GET',
    base: '/auth',
    path: 'status',
    summary: 'Whether the caller holds a live session',
    tags: ['auth'],
    response: AuthStatusResponse,
    public: true,
  }),
};
