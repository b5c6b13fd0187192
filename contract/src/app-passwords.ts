import { z } from 'zod';
import { OkResponse } from './common.ts';
import { defineRoute } from './route.ts';
import { emailField } from './validators.ts';

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

/** A mailbox's app passwords as its administrators see them (never the passwords). */
export const MailboxAppPasswords = z.object({
  email: z.string(),
  /** Whether the mailbox has MFA on: then only app passwords sign in to IMAP/SMTP. */
  mfaEnabled: z.boolean(),
  items: z.array(AppPassword),
});
export type MailboxAppPasswords = z.infer<typeof MailboxAppPasswords>;

const mailboxParam = z.object({ email: emailField('Email').transform((v) => v.toLowerCase()) });

/**
 * Administrators (and domain administrators, in their domains) list and revoke a mailbox's app
 * passwords. A password reset, a suspension or MFA removed revokes all of them.
 */
export const mailboxAppPasswordRoutes = {
  list: defineRoute({
    method: 'GET',
    path: 'mail/users/:email/app-passwords',
    summary: "A mailbox's app passwords (names and dates; the passwords are never shown again)",
    tags: ['mail'],
    params: mailboxParam,
    response: MailboxAppPasswords,
    access: 'domain',
    domainFields: ['params.email'],
  }),
  revoke: defineRoute({
    method: 'DELETE',
    path: 'mail/users/:email/app-passwords/:id',
    summary: "Revoke one of a mailbox's app passwords (IMAP, POP3 and SMTP refuse it at once)",
    tags: ['mail'],
    params: mailboxParam.extend({ id: z.coerce.number().int().positive() }),
    response: OkResponse,
    audit: 'mail.mailbox.app_password.revoke',
    access: 'domain',
    domainFields: ['params.email'],
  }),
};
