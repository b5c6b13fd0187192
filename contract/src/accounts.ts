import { z } from 'zod';
import { OkResponse } from './common.ts';
import { defineRoute } from './route.ts';
import { emailField, passwordField } from './validators.ts';

/** Console accounts (administrators), managed from the MFA management screen. */
export const ConsoleAccount = z.object({
  email: z.string(),
  createdAt: z.string(),
});
export type ConsoleAccount = z.infer<typeof ConsoleAccount>;

export const NewConsoleAccount = z.object({
  email: emailField('Email'),
  password: passwordField('Password', 12),
});
export type NewConsoleAccount = z.infer<typeof NewConsoleAccount>;

export const AccountEmailParams = z.object({ email: z.string().min(1).max(254) });

export const accountsRoutes = {
  list: defineRoute({
    method: 'GET',
    path: 'accounts',
    summary: 'Console accounts',
    tags: ['accounts'],
    response: z.array(ConsoleAccount),
  }),
  create: defineRoute({
    method: 'POST',
    path: 'accounts',
    summary: 'Add a console account',
    tags: ['accounts'],
    body: NewConsoleAccount,
    response: ConsoleAccount,
    audit: 'auth.admin.add',
  }),
  remove: defineRoute({
    method: 'DELETE',
    path: 'accounts/:email',
    summary: 'Remove a console account (never the last one)',
    tags: ['accounts'],
    params: AccountEmailParams,
    response: OkResponse,
    audit: 'auth.admin.remove',
  }),
};
