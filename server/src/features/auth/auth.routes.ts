import { authRoutes } from '@mailroom/contract/auth';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppDeps } from '../../app-deps.ts';
import { recordAudit } from '../../http/audit-log.repository.ts';
import { tooManyRequests, unauthorized } from '../../http/errors.ts';
import { registerRoute } from '../../http/register-route.ts';
import type { SecondStep, SignInMeta } from '../../http/sign-in-step.ts';
import {
  createSession,
  revokeSession,
  SESSION_COOKIE,
  tokenFromHeaders,
  touchSession,
} from '../../http/sessions.ts';
import {
  DEFAULT_THROTTLE,
  recordSuccess,
  reserveAttempt,
  type ThrottlePolicy,
} from './login-throttle.service.ts';
import { dummyHash, verifyPassword } from '../../lib/password-hash.ts';
import {
  ensureMailboxAccount,
  findSignInAccount,
  isMailboxAccount,
} from '../../http/sign-in-account.repository.ts';

export function registerAuth(
  app: FastifyInstance,
  deps: AppDeps,
  throttle: ThrottlePolicy = DEFAULT_THROTTLE,
  secondStep?: SecondStep,
): void {
  const { db } = deps.database;
  const policy = { idleMs: deps.config.sessionIdleMs, absoluteMs: deps.config.sessionAbsoluteMs };
  const meta = (request: FastifyRequest): SignInMeta => ({
    ip: request.ip,
    userAgent: request.headers['user-agent'] ?? null,
    cookie: request.headers.cookie,
  });

  /** Opens the session and sets its cookie (the password, and the second factor if any, proved). */
  async function openSession(
    request: FastifyRequest,
    reply: FastifyReply,
    admin: { id: number; email: string },
    opts: { scope: 'enrol' | null; absoluteMs: number },
  ): Promise<string> {
    const token = await createSession(
      db,
      { ...policy, absoluteMs: opts.absoluteMs },
      admin.id,
      {
        ip: request.ip,
        userAgent: request.headers['user-agent'] ?? null,
        scope: opts.scope,
      },
      deps.clock ? deps.clock() : Date.now(),
    );
    await recordAudit(db, { actor: admin.email, action: 'auth.login', ip: request.ip, outcome: 'success' });
    const secure = request.protocol === 'https' ? '; Secure' : '';
    void reply.header(
      'set-cookie',
      `${SESSION_COOKIE}=${token}; Path=/; HttpOnly; SameSite=Strict; Max-Age=${Math.floor(opts.absoluteMs / 1000)}${secure}`,
    );
    return token;
  }

  registerRoute(app, authRoutes.login, async ({ body, request, reply }) => {
    const email = body.email.trim().toLowerCase();
    const ip = request.ip;
    // The attempt is counted before the password is looked at, so parallel guesses cannot all pass.
    const reserved = await reserveAttempt(db, throttle, email, ip);
    if (reserved.ids === undefined) {
      const wait = reserved.wait;
      await recordAudit(db, {
        actor: email,
        action: 'auth.login',
        ip,
        outcome: 'failure',
        details: { reason: 'throttled' },
      });
      throw tooManyRequests(wait, `Too many failed sign-ins. Try again in ${wait} seconds.`);
    }
    const account = await findSignInAccount(db, email);
    const ok = await verifyPassword(account?.passwordHash ?? (await dummyHash()), body.password);
    if (!account || !ok) {
      await recordAudit(db, {
        actor: email,
        action: 'auth.login',
        ip,
        outcome: 'failure',
        details: { reason: 'bad credentials' },
      });
      throw unauthorized('Invalid email or password.');
    }
    const admin = {
      id: account.id ?? (await ensureMailboxAccount(db, { id: account.mailboxId!, email: account.email })),
      email: account.email,
    };
    await recordSuccess(db, email, ip, reserved.ids);
    const next = secondStep
      ? await secondStep.afterPassword({ id: admin.id, email: admin.email }, meta(request))
      : { kind: 'session' as const, scope: null, absoluteMs: policy.absoluteMs };
    if (next.kind === 'challenge') {
      await recordAudit(db, {
        actor: admin.email,
        action: 'auth.login',
        ip,
        outcome: 'success',
        details: { step: 'password; second factor needed' },
      });
      return next.answer;
    }
    const token = await openSession(request, reply, admin, next);
    // MFA may have become required between the check above and the session (closes that window).
    if (secondStep && next.scope === null) await secondStep.sessionOpened(admin.id);
    const kind = account.mailboxId === null ? ('admin' as const) : ('mailbox' as const);
    return next.scope === 'enrol'
      ? { success: true, api_key: token, email: admin.email, enrol_required: true, kind }
      : { success: true, api_key: token, email: admin.email, kind };
  });

  if (secondStep) {
    registerRoute(app, authRoutes.mfaVerify, async ({ body, request, reply }) => {
      const done = await secondStep.verify(body, meta(request));
      const token = await openSession(request, reply, done.admin, {
        scope: null,
        absoluteMs: done.absoluteMs,
      });
      if (done.trusted) {
        const secure = request.protocol === 'https' ? '; Secure' : '';
        void reply.header('set-cookie', [
          String(reply.getHeader('set-cookie')),
          `mailroom_trusted=${done.trusted.token}; Path=/auth; HttpOnly; SameSite=Strict; Max-Age=${done.trusted.maxAgeS}${secure}`,
        ]);
      }
      const kind = (await isMailboxAccount(db, done.admin.id)) ? ('mailbox' as const) : ('admin' as const);
      return { success: true, api_key: token, email: done.admin.email, kind };
    });
    registerRoute(app, authRoutes.mfaWebauthnOptions, async ({ body }) =>
      secondStep.webauthnOptions(body.challenge),
    );
    registerRoute(app, authRoutes.mfaRecovery, async ({ body, request }) => {
      await secondStep.recover(body, meta(request));
      return {
        success: true as const,
        message: 'If the account exists, the administrators have been asked to recover it.',
      };
    });
  }

  registerRoute(app, authRoutes.logout, async ({ request, reply }) => {
    const token = tokenFromHeaders(request.headers);
    if (token) {
      const session = await touchSession(db, policy, token);
      await revokeSession(db, token);
      if (session)
        await recordAudit(db, {
          actor: session.email,
          action: 'auth.logout',
          ip: request.ip,
          outcome: 'success',
        });
    }
    void reply.header('set-cookie', `${SESSION_COOKIE}=; Path=/; HttpOnly; SameSite=Strict; Max-Age=0`);
    return { success: true as const };
  });

  registerRoute(app, authRoutes.status, async ({ request }) => {
    const token = tokenFromHeaders(request.headers);
    const session = token ? await touchSession(db, policy, token) : null;
    return session
      ? session.mailboxId !== null
        ? { authenticated: true, email: session.email, kind: 'mailbox' as const }
        : {
            authenticated: true,
            email: session.email,
            role: session.role === 'admin' ? ('admin' as const) : ('domain-admin' as const),
            domains: session.domains,
            kind: 'admin' as const,
          }
      : { authenticated: false };
  });
}
