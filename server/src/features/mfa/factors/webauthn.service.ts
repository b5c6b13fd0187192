import type { MfaDevice } from '@mailroom/contract/mfa';
import {
  type AuthenticationResponseJSON,
  type AuthenticatorTransport,
  generateAuthenticationOptions,
  generateRegistrationOptions,
  type PublicKeyCredentialCreationOptionsJSON,
  type PublicKeyCredentialRequestOptionsJSON,
  type RegistrationResponseJSON,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
} from '@simplewebauthn/server';
import { fieldError } from '../../../http/errors.ts';
import {
  deleteChallengeByToken,
  insertChallenge,
  takeChallengeByToken,
} from '../sign-in/challenge.repository.ts';
import { finishEnrolment } from './factors.service.ts';
import { activeDevicesOfType, insertDevice, setSignCount } from './mfa-device.repository.ts';
import { iso, type MfaContext } from '../mfa.context.ts';

/** Passkeys and security keys ("Hardware Token"): WebAuthn with 'none' attestation. */

const REGISTER_TTL_MS = 5 * 60_000;
const registerKey = (adminId: number) => `register:${adminId}`;

/**
 * The origin the browser reports must be one configured (MAILROOM_RP_ORIGINS) or, when none is,
 * any http(s) origin whose host is the relying party id itself (localhost by default).
 */
function expectedOrigin(ctx: MfaContext, clientDataJSON: unknown): string[] {
  if (ctx.rp.origins.length) return ctx.rp.origins;
  try {
    const data = JSON.parse(Buffer.from(String(clientDataJSON), 'base64url').toString('utf8')) as {
      origin?: string;
    };
    const u = new URL(String(data.origin));
    if ((u.protocol === 'http:' || u.protocol === 'https:') && u.hostname === ctx.rp.id) return [u.origin];
  } catch {
    // fall through: nothing matches
  }
  return [`https://${ctx.rp.id}`];
}

async function credentials(ctx: MfaContext, adminId: number) {
  return activeDevicesOfType(ctx.db, adminId, 'Hardware Token');
}

const transportsOf = (t: string | null) => (t ? (JSON.parse(t) as AuthenticatorTransport[]) : undefined);

export async function registrationOptions(
  ctx: MfaContext,
  admin: { id: number; email: string },
): Promise<PublicKeyCredentialCreationOptionsJSON> {
  const existing = await credentials(ctx, admin.id);
  const options = await generateRegistrationOptions({
    rpName: ctx.rp.name,
    rpID: ctx.rp.id,
    userName: admin.email,
    userID: new TextEncoder().encode(`admin:${admin.id}`),
    attestationType: 'none',
    excludeCredentials: existing.map((c) => {
      const transports = transportsOf(c.transports);
      return { id: c.credential_id ?? '', ...(transports ? { transports } : {}) };
    }),
    authenticatorSelection: { residentKey: 'preferred', userVerification: 'preferred' },
  });
  const now = ctx.now();
  await ctx.db.transaction().execute(async (trx) => {
    await deleteChallengeByToken(trx, registerKey(admin.id));
    await insertChallenge(trx, {
      token_hash: registerKey(admin.id),
      admin_id: admin.id,
      purpose: 'register',
      webauthn_challenge: options.challenge,
      created_at: now,
      expires_at: now + REGISTER_TTL_MS,
      ip: null,
    });
  });
  return options;
}

export async function registerCredential(
  ctx: MfaContext,
  admin: { id: number; email: string; sessionId: number },
  deviceName: string,
  credential: Record<string, unknown>,
  ip: string | null,
): Promise<MfaDevice> {
  const pending = await takeChallengeByToken(ctx.db, registerKey(admin.id));
  if (!pending?.webauthn_challenge || pending.expires_at <= ctx.now())
    throw fieldError('credential', 'The registration has expired. Start again.');
  const response = credential as unknown as RegistrationResponseJSON;
  let info;
  try {
    const v = await verifyRegistrationResponse({
      response,
      expectedChallenge: pending.webauthn_challenge,
      expectedOrigin: expectedOrigin(ctx, response.response?.clientDataJSON),
      expectedRPID: ctx.rp.id,
      requireUserVerification: false,
    });
    if (!v.verified) throw new Error('not verified');
    info = v.registrationInfo;
  } catch (err) {
    throw fieldError('credential', `The security key could not be registered: ${(err as Error).message}`);
  }
  const deviceId = await insertDevice(ctx.db, {
    admin_id: admin.id,
    device_name: deviceName,
    device_type: 'Hardware Token',
    status: 'pending',
    credential_id: info.credential.id,
    public_key: Buffer.from(info.credential.publicKey).toString('base64url'),
    sign_count: info.credential.counter,
    transports: info.credential.transports ? JSON.stringify(info.credential.transports) : null,
    created_at: iso(ctx.now()),
  });
  return finishEnrolment(ctx, admin, deviceId, ip);
}

export async function authenticationOptions(
  ctx: MfaContext,
  adminId: number,
): Promise<PublicKeyCredentialRequestOptionsJSON> {
  const creds = await credentials(ctx, adminId);
  return generateAuthenticationOptions({
    rpID: ctx.rp.id,
    userVerification: 'preferred',
    allowCredentials: creds.map((c) => {
      const transports = transportsOf(c.transports);
      return { id: c.credential_id ?? '', ...(transports ? { transports } : {}) };
    }),
  });
}

/** Checks an assertion against the account's stored keys; the signature counter must move on. */
export async function verifyAuthentication(
  ctx: MfaContext,
  adminId: number,
  challenge: string,
  credential: Record<string, unknown>,
): Promise<boolean> {
  const response = credential as unknown as AuthenticationResponseJSON;
  const stored = (await credentials(ctx, adminId)).find((c) => c.credential_id === response.id);
  if (!stored?.credential_id || !stored.public_key) return false;
  try {
    const transports = transportsOf(stored.transports);
    const v = await verifyAuthenticationResponse({
      response,
      expectedChallenge: challenge,
      expectedOrigin: expectedOrigin(ctx, response.response?.clientDataJSON),
      expectedRPID: ctx.rp.id,
      requireUserVerification: false,
      credential: {
        id: stored.credential_id,
        publicKey: new Uint8Array(Buffer.from(stored.public_key, 'base64url')),
        counter: Number(stored.sign_count ?? 0),
        ...(transports ? { transports } : {}),
      },
    });
    if (!v.verified) return false;
    await setSignCount(ctx.db, stored.id, v.authenticationInfo.newCounter, iso(ctx.now()));
    return true;
  } catch {
    return false;
  }
}
