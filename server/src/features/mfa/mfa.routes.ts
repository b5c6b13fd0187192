import { authRoutes } from '@mailroom/contract/auth';
import { mfaRoutes } from '@mailroom/contract/mfa';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AppDeps } from '../../app-deps.ts';
import type { GuessThrottle, SecondStep } from '../../http/sign-in-step.ts';
import { registerRoute } from '../../http/register-route.ts';
import { sendPage } from '../../http/list-headers.ts';
import { registerAccount } from './account/account.routes.ts';
import { type MfaContext, mfaContext } from './mfa.context.ts';
import {
  disableFor,
  enableFor,
  listActivity,
  listBackupCodeRows,
  listDevices,
  listLockouts,
  listRecoveryRequests,
  listUsers,
  resolveRecovery,
  revokeDeviceById,
  stats,
  unlock,
} from './users/mfa-admin.service.ts';
import { listUserPage } from './users/mfa-users.service.ts';
import { listRecoveryMethods } from './factors/recovery-methods.service.ts';
import {
  createPolicy,
  deletePolicy,
  enforceEnrolment,
  listPolicies,
  updatePolicy,
} from './policy/policy.service.ts';
import {
  afterPassword,
  createRecoveryRequest,
  verifySecondStep,
  mailSignInCode,
  webauthnLoginOptions,
} from './sign-in/second-step.service.ts';

const actor = (request: FastifyRequest) => request.admin?.email ?? 'unknown';

/**
 * Registers the MFA administration (/api/mfa/*) and account (/api/account/*) routes, and answers
 * the second step of a sign-in for the auth feature.
 */
export function registerMfa(
  app: FastifyInstance,
  deps: AppDeps,
  /** A mailbox user's password change: the mail feature's, given by app.ts. */
  changeMailboxPassword: MfaContext['changeMailboxPassword'],
  /** The sign-in's guess throttle: re-authentication and "current password" share its buckets. */
  guesses: GuessThrottle,
  /** The sender of code mails (the mail server's own name); app.ts gives it from the mail settings. */
  mailFrom?: MfaContext['mailFrom'],
): SecondStep {
  const ctx = mfaContext(deps, changeMailboxPassword, guesses, mailFrom);
  registerAccount(app, ctx);

  registerRoute(app, mfaRoutes.dashboard, async () => {
    const users = await listUsers(ctx);
    const devices = await listDevices(ctx);
    return {
      stats: await stats(ctx, users, devices),
      users,
      policies: await listPolicies(ctx.db),
      activity: await listActivity(ctx, 20),
    };
  });
  registerRoute(app, mfaRoutes.users, async ({ query, reply }) =>
    sendPage(reply, await listUserPage(ctx, query)),
  );
  registerRoute(app, authRoutes.mfaEmailCode, async ({ body }) => ({
    success: true as const,
    sentTo: await mailSignInCode(ctx, body.challenge),
  }));
  registerRoute(app, mfaRoutes.devices, async () => listDevices(ctx));
  registerRoute(app, mfaRoutes.policies, async () => listPolicies(ctx.db));
  registerRoute(app, mfaRoutes.activity, async () => listActivity(ctx, 200));
  registerRoute(app, mfaRoutes.status, async () => {
    const last = await listActivity(ctx, 1);
    return {
      serviceActive: true,
      methods: [
        { name: 'TOTP', available: true, note: null },
        { name: 'Hardware Token', available: true, note: null },
        { name: 'Backup Codes', available: true, note: null },
        { name: 'Trusted Devices', available: true, note: 'Per policy' },
        { name: 'Email', available: true, note: 'Codes sent through the local mail server' },
        { name: 'SMS', available: false, note: 'No SMS provider configured' },
      ],
      lastActivity: last[0]?.timestamp ?? null,
    };
  });
  registerRoute(app, mfaRoutes.enable, async ({ body, request }) => {
    request.auditTarget = body.email;
    await enableFor(ctx, body.email);
    return {
      success: true as const,
      message: `${body.email} must enrol a second factor at the next sign-in.`,
    };
  });
  registerRoute(app, mfaRoutes.disable, async ({ body, request }) => {
    request.auditTarget = body.email;
    await disableFor(ctx, body.email, request.ip);
    return { success: true as const, message: `MFA disabled for ${body.email}.` };
  });
  registerRoute(app, mfaRoutes.createPolicy, async ({ body, request }) => {
    request.auditTarget = body.name;
    return createPolicy(ctx, body);
  });
  registerRoute(app, mfaRoutes.updatePolicy, async ({ params, body }) => updatePolicy(ctx, params.id, body));
  registerRoute(app, mfaRoutes.deletePolicy, async ({ params }) => {
    await deletePolicy(ctx.db, params.id);
    return { success: true as const };
  });
  registerRoute(app, mfaRoutes.revokeDevice, async ({ params, request }) => {
    const email = await revokeDeviceById(ctx, params.id, request.ip);
    request.auditDetails = { user: email };
    return { success: true as const };
  });
  registerRoute(app, mfaRoutes.recovery, async () => ({
    requests: await listRecoveryRequests(ctx),
    lockouts: await listLockouts(ctx),
    backupCodes: await listBackupCodeRows(ctx),
    recoveryMethods: await listRecoveryMethods(ctx),
  }));
  registerRoute(app, mfaRoutes.unlock, async ({ params, request }) => {
    const email = await unlock(ctx, params.id, actor(request));
    request.auditDetails = { user: email };
    return { success: true as const, message: `${email} unlocked.` };
  });
  registerRoute(app, mfaRoutes.approveRecovery, async ({ params, request }) => {
    const email = await resolveRecovery(ctx, params.id, true, actor(request));
    request.auditDetails = { user: email };
    return {
      success: true as const,
      message: `Recovery approved: ${email} enrols again at the next sign-in.`,
    };
  });
  registerRoute(app, mfaRoutes.rejectRecovery, async ({ params, request }) => {
    const email = await resolveRecovery(ctx, params.id, false, actor(request));
    request.auditDetails = { user: email };
    return { success: true as const };
  });

  return {
    afterPassword: (admin, meta) => afterPassword(ctx, admin, meta),
    verify: (body, meta) => verifySecondStep(ctx, body, meta),
    webauthnOptions: (challenge) => webauthnLoginOptions(ctx, challenge),
    recover: (body, meta) => createRecoveryRequest(ctx, body, meta),
    sessionOpened: (adminId) => enforceEnrolment(ctx.db, adminId),
  };
}
