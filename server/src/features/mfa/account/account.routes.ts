import { accountRoutes } from '@mailroom/contract/mfa';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { forbidden, unauthorized } from '../../../http/errors.ts';
import { registerRoute } from '../../../http/register-route.ts';
import { accountMfa, changeOwnPassword, reauthenticate, requireRecent } from './account.service.ts';
import {
  activeFactorCount,
  confirmTotp,
  generateBackupCodes,
  removeDevice,
  setPrimary,
  startTotp,
} from '../factors/factors.service.ts';
import type { MfaContext } from '../mfa.context.ts';
import { effectivePolicy } from '../policy/policy.service.ts';
import { addRecoveryEmail, verifyRecoveryEmail } from '../factors/recovery-methods.service.ts';
import { registerCredential, registrationOptions } from '../factors/webauthn.service.ts';

function who(request: FastifyRequest) {
  if (!request.admin) throw unauthorized();
  return { id: request.admin.adminId, email: request.admin.email, sessionId: request.admin.sessionId };
}

/** The signed-in account's own factors, password and re-authentication (/api/account/*). */
export function registerAccount(app: FastifyInstance, ctx: MfaContext): void {
  registerRoute(app, accountRoutes.mfa, async ({ request }) => {
    const me = who(request);
    return accountMfa(ctx, me);
  });

  registerRoute(app, accountRoutes.reauth, async ({ body, request }) => {
    const me = who(request);
    return reauthenticate(ctx, me, request.ip, body);
  });

  registerRoute(app, accountRoutes.totpStart, async ({ body, request }) => {
    const me = who(request);
    await requireRecent(ctx, me.sessionId);
    const policy = await effectivePolicy(ctx.db, me.id);
    if (!policy.allowedMethods.includes('TOTP'))
      throw forbidden('The MFA policy does not allow authenticator apps.');
    return startTotp(ctx, me, body.deviceName);
  });

  registerRoute(app, accountRoutes.totpConfirm, async ({ params, body, request }) => {
    const me = who(request);
    await requireRecent(ctx, me.sessionId);
    request.auditTarget = String(params.id);
    return confirmTotp(ctx, me, params.id, body.code, request.ip);
  });

  registerRoute(app, accountRoutes.webauthnRegisterOptions, async ({ request }) => {
    const me = who(request);
    await requireRecent(ctx, me.sessionId);
    const policy = await effectivePolicy(ctx.db, me.id);
    if (!policy.allowedMethods.includes('Hardware Token'))
      throw forbidden('The MFA policy does not allow security keys.');
    return (await registrationOptions(ctx, me)) as unknown as Record<string, unknown>;
  });

  registerRoute(app, accountRoutes.webauthnRegister, async ({ body, request }) => {
    const me = who(request);
    await requireRecent(ctx, me.sessionId);
    return registerCredential(ctx, me, body.deviceName, body.credential, request.ip);
  });

  registerRoute(app, accountRoutes.setPrimary, async ({ params, request }) => {
    const me = who(request);
    await setPrimary(ctx, me.id, params.id);
    return { success: true as const };
  });

  registerRoute(app, accountRoutes.removeDevice, async ({ params, request }) => {
    const me = who(request);
    await requireRecent(ctx, me.sessionId);
    await removeDevice(ctx, me, params.id, request.ip);
    return { success: true as const, message: 'Device removed. Every session of the account has ended.' };
  });

  registerRoute(app, accountRoutes.backupCodes, async ({ request }) => {
    const me = who(request);
    await requireRecent(ctx, me.sessionId);
    const policy = await effectivePolicy(ctx.db, me.id);
    if (!policy.backupCodesEnabled) throw forbidden('The MFA policy does not allow backup codes.');
    if ((await activeFactorCount(ctx.db, me.id)) === 0)
      throw forbidden('Enrol an authenticator app or a security key before generating backup codes.');
    return generateBackupCodes(ctx, me.id, policy.backupCodesCount);
  });

  registerRoute(app, accountRoutes.addRecoveryEmail, async ({ body, request }) => {
    const me = who(request);
    await requireRecent(ctx, me.sessionId);
    request.auditTarget = body.email;
    return addRecoveryEmail(ctx, me, body.email);
  });

  registerRoute(app, accountRoutes.verifyRecoveryEmail, async ({ params, body, request }) => {
    const me = who(request);
    return verifyRecoveryEmail(ctx, me, params.id, body.code);
  });

  registerRoute(app, accountRoutes.password, async ({ body, request }) => {
    const me = who(request);
    await changeOwnPassword(
      ctx,
      me,
      request.ip,
      request.admin?.mailboxId ?? null,
      body.currentPassword,
      body.newPassword,
    );
    return { success: true as const, message: 'Password changed. Every session of the account has ended.' };
  });
}
