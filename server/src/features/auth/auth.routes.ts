import { authRoutes } from '@mailroom/contract/auth';
import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../app-deps.ts';
import { recordAudit } from '../../http/audit.ts';
import { tooManyRequests, unauthorized } from '../../http/errors.ts';
import { registerRoute } from '../../http/register-route.ts';
import {
  createSession,
  revokeSession,
  SESSION_COOKIE,
  tokenFromHeaders,
  touchSession,
} from '../../http/sessions.ts';
import { DEFAULT_THROTTLE, recordSuccess, reserveAttempt, type ThrottlePolicy } from './login-throttle.ts';
import { dummyHash, verifyPassword } from '../../lib/password-hash.ts';

export function registerAuth(
  app: FastifyInstance,
  deps: AppDeps,
  throttle: ThrottlePolicy = DEFAULT_THROTTLE,
): void {
  const { db } = deps.database;
  const policy = { idleMs: deps.config.sessionIdleMs, absoluteMs: deps.config.sessionAbsoluteMs };

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
    const admin = await db
      .selectFrom('admins')
      .select(['id', 'email', 'password_hash'])
      .where('email', '=', email)
      .executeTakeFirst();
    const ok = await verifyPassword(admin?.password_hash ?? (await dummyHash()), body.password);
    if (!admin || !ok) {
      await recordAudit(db, {
        actor: email,
        action: 'auth.login',
        ip,
        outcome: 'failure',
        details: { reason: 'bad credentials' },
      });
      throw unauthorized('Invalid email or password.');
    }
    await recordSuccess(db, email, ip, reserved.ids);
    const token = await createSession(db, policy, admin.id, {
      ip,
      userAgent: request.headers['user-agent'] ?? null,
    });
    await recordAudit(db, { actor: admin.email, action: 'auth.login', ip, outcome: 'success' });
    const secure = request.protocol === 'https' ? '; Secure' : '';
    void reply.header(
      'set-cookie',
      `${SESSION_COOKIE}=${token}; Path=/; HttpOnly; SameSite=Strict; Max-Age=${Math.floor(policy.absoluteMs / 1000)}${secure}`,
    );
    return { success: true, api_key: token, email: admin.email };
  });

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
    return session ? { authenticated: true, email: session.email } : { authenticated: false };
  });
}
