import { z } from 'zod';
import { OkResponse } from './common.ts';
import { defineRoute } from './route.ts';

/**
 * Characters of an app password that Dovecot's SQL passdb looks it up by (the rest is checked
 * against the hash): the generator and the rendered query must agree.
 */
export const APP_PASSWORD_KEY_LENGTH = 5;

/** App passwords of a mailbox user: IMAP, POP3 and SMTP sign-in (the only one when MFA is on). */
export const AppPassword = z.object({
  id: z.number().int(),
  name: z.string(),
  createdAt: z.string(),
});
export type AppPassword = z.infer<typeof AppPassword>;

export const AppPasswordCreateRequest = z.object({
  name: z.string().trim().min(1, 'Name is required').max(64, 'Name must be at most 64'),
});

export const AppPasswordCreated = AppPassword.extend({
  /** Shown once: only its hash is stored. */
  password: z.string(),
});
export type AppPasswordCreated = z.infer<typeof AppPasswordCreated>;

export const AppPasswordList = z.object({
  /** False for a console account (app passwords belong to mailboxes). */
  available: z.boolean(),
  /** Whether the mailbox has MFA on: then only app passwords sign in to IMAP/SMTP. */
  mfaEnabled: z.boolean(),
  items: z.array(AppPassword),
});
export type AppPasswordList = z.infer<typeof AppPasswordList>;

export const AppPasswordIdParams = z.object({ id: z.coerce.number().int().positive() });

/** At most this many app passwords per mailbox. */
export const APP_PASSWORDS_MAX = 20;

export const appPasswordRoutes = {
  list: defineRoute({
    method: 'GET',
    path: 'account/app-passwords',
    summary: "The signed-in mailbox user's app passwords",
    tags: ['account'],
    response: AppPasswordList,
  }),
  create: defineRoute({
    method: 'POST',
    path: 'account/app-passwords',
    summary: 'Create an app password (the password is answered once)',
    tags: ['account'],
    body: AppPasswordCreateRequest,
    response: AppPasswordCreated,
    audit: 'account.app_password.create',
  }),
  revoke: defineRoute({
    method: 'DELETE',
    path: 'account/app-passwords/:id',
    summary: 'Revoke an app password',
    tags: ['account'],
    params: AppPasswordIdParams,
    response: OkResponse,
    audit: 'account.app_password.revoke',
  }),
};
