import { z } from 'zod';
import { OkResponse } from './common.ts';
import { defineRoute } from './route.ts';
import { emailField, passwordField } from './validators.ts';

export const CONSOLE_ROLES = ['admin', 'domain-admin'] as const;
export type ConsoleRole = (typeof CONSOLE_ROLES)[number];
export const CONSOLE_ROLE_LABELS: Record<ConsoleRole, string> = {
  admin: 'Administrator',
  'domain-admin': 'Domain administrator',
};
export const MAX_ADMIN_DOMAINS = 500;

const domainName = z
  .string()
  .trim()
  .toLowerCase()
  .max(253, 'Domain must be at most 253 characters')
  .regex(
    /^(?=.{1,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z0-9-]{2,63}$/,
    'Domain format is invalid',
  );
const roleField = z.enum(CONSOLE_ROLES, { error: 'role must be admin or domain-admin' });
const domainsField = z
  .array(domainName, { error: 'domains must be a list' })
  .max(MAX_ADMIN_DOMAINS, `At most ${MAX_ADMIN_DOMAINS} domains`);

/**
 * Console accounts, managed from the MFA management screen: administrators (everything) and
 * domain administrators (the mailboxes, aliases and DNS zones of their `domains` only).
 */
export const ConsoleAccount = z.object({
  email: z.string(),
  createdAt: z.string(),
  role: roleField,
  domains: z.array(z.string()),
});
export type ConsoleAccount = z.infer<typeof ConsoleAccount>;

export const NewConsoleAccount = z
  .object({
    email: emailField('Email'),
    password: passwordField('Password', 12),
    role: roleField.optional(),
    domains: domainsField.optional(),
  })
  .superRefine((v, ctx) => {
    if (v.role === 'domain-admin' && !v.domains?.length)
      ctx.addIssue({ code: 'custom', path: ['domains'], message: 'Assign at least one domain' });
  });

/** Change an account's role and domains (and, optionally, its password). */
export const ConsoleAccountUpdate = z
  .object({
    role: roleField,
    domains: domainsField.default([]),
    password: passwordField('Password', 12).optional(),
  })
  .superRefine((v, ctx) => {
    if (v.role === 'domain-admin' && !v.domains.length)
      ctx.addIssue({ code: 'custom', path: ['domains'], message: 'Assign at least one domain' });
  });
export type ConsoleAccountUpdate = z.input<typeof ConsoleAccountUpdate>;
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
  update: defineRoute({
    method: 'PUT',
    path: 'accounts/:email',
    summary: "Change a console account's role and domains (and password)",
    tags: ['accounts'],
    params: AccountEmailParams,
    body: ConsoleAccountUpdate,
    response: ConsoleAccount,
    audit: 'auth.admin.update',
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
