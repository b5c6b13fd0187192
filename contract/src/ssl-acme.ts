import { z } from 'zod';
import { defineRoute } from './route.ts';

/** A DNS host for ACME DNS-01 challenges; `available: false` ones are listed with the reason. */
export const AcmeDnsProvider = z.object({
  id: z.string(),
  name: z.string(),
  available: z.boolean(),
  reason: z.string().nullable(),
  /** The generation form's credential fields this provider reads (dnsCredentials keys). */
  credentials: z.array(z.enum(['apiKey', 'apiSecret'])),
});
export type AcmeDnsProvider = z.infer<typeof AcmeDnsProvider>;

export const AcmeDirectory = z.object({
  id: z.string(),
  name: z.string(),
  url: z.string(),
  staging: z.boolean(),
});
export type AcmeDirectory = z.infer<typeof AcmeDirectory>;

export const AcmeOptions = z.object({
  providers: z.array(AcmeDnsProvider),
  /** Named CA directories; any other ACME directory URL may be used too. */
  directories: z.array(AcmeDirectory),
  /** Port of Mailroom's own HTTP-01 listener, or null when it is off (a webroot is then needed). */
  httpListenerPort: z.number().int().nullable(),
  /** Key choices ACME accepts; Ed25519 is refused by the CAs. */
  keys: z.array(z.object({ algorithm: z.enum(['RSA', 'ECDSA']), sizes: z.array(z.number().int()) })),
});
export type AcmeOptions = z.infer<typeof AcmeOptions>;

/** The account Mailroom holds with one CA directory (its key stays on the server). */
export const AcmeAccount = z.object({
  directoryUrl: z.string(),
  contactEmail: z.string(),
  /** The CA's URL of the account; empty until the CA registered it. */
  accountUrl: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type AcmeAccount = z.infer<typeof AcmeAccount>;

export const AcmeAccountReset = z.object({
  directoryUrl: z
    .string({ error: 'Directory URL is required' })
    .trim()
    .min(1, 'Directory URL is required')
    .max(2000, 'Directory URL must be at most 2000 characters'),
});

export const AcmeAccountResetAnswer = z.object({ reset: z.boolean(), message: z.string() });

export const sslAcmeRoutes = {
  accounts: defineRoute({
    method: 'GET',
    path: 'ssl/acme/accounts',
    summary: 'The ACME accounts Mailroom holds, one per CA directory',
    tags: ['ssl'],
    response: z.array(AcmeAccount),
  }),
  resetAccount: defineRoute({
    method: 'POST',
    path: 'ssl/acme/accounts/reset',
    summary:
      'Forget the ACME account of a CA directory: the next order registers a new one (a CA that was reset, or an account deactivated)',
    tags: ['ssl'],
    body: AcmeAccountReset,
    response: AcmeAccountResetAnswer,
    audit: 'ssl.acme.account.reset',
  }),
  options: defineRoute({
    method: 'GET',
    path: 'ssl/acme/providers',
    summary: 'ACME DNS providers (with availability), CA directories and key choices',
    tags: ['ssl'],
    response: AcmeOptions,
  }),
};
