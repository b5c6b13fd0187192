import { sslMessages } from '@mailroom/contract/ssl';
import { conflict } from '../../http/errors.ts';
import { servedMailCertificateId } from './mail-tls.service.ts';
import type { CertificateUsage, CertificateUsageRegistry, SslContext } from './ssl-context.types.ts';
import { readSslSettings } from './ssl-settings.repository.ts';

export const MAIL_USE = 'mail server';

/**
 * The one registry of certificate usages: the list's "in use" column, the detail page and the
 * delete protection all ask it, so an area that starts serving certificates only registers itself.
 */
export class CertificateUsages implements CertificateUsageRegistry {
  private readonly users = new Set<CertificateUsage>();

  /** Adds a usage; the returned function removes it again. */
  register(u: CertificateUsage): () => void {
    this.users.add(u);
    return () => this.users.delete(u);
  }

  /** Every certificate in use, with its users' names (in registration order). */
  async all(): Promise<Map<number, string[]>> {
    const answers = await Promise.all([...this.users].map((u) => u.uses()));
    const out = new Map<number, string[]>();
    for (const list of answers)
      for (const { id, user } of list) {
        const names = out.get(id) ?? [];
        if (!names.includes(user)) names.push(user);
        out.set(id, names);
      }
    return out;
  }

  async usesOf(id: number): Promise<string[]> {
    return (await this.all()).get(id) ?? [];
  }

  /** The delete protection: a certificate in use goes only when the request confirms it (409 naming the users). */
  async refuseUnlessConfirmed(id: number, confirmed: boolean): Promise<string[]> {
    const uses = await this.usesOf(id);
    if (uses.length && !confirmed) throw conflict(sslMessages.inUse(uses), { inUse: uses });
    return uses;
  }
}

/** Which certificate the mail server serves now (chosen, or the host name's). */
export async function mailServedId(ctx: Pick<SslContext, 'db' | 'mailHostname'>): Promise<number | null> {
  const { mailCertificateId } = await readSslSettings(ctx.db);
  return servedMailCertificateId(ctx.db, await ctx.mailHostname(), mailCertificateId);
}

/** The mail server's usage: the certificate Postfix and Dovecot serve. */
export const mailUsage = (ctx: Pick<SslContext, 'db' | 'mailHostname'>): CertificateUsage => ({
  async uses() {
    const id = await mailServedId(ctx);
    return id === null ? [] : [{ id, user: MAIL_USE }];
  },
});

/**
 * Runs a change to the stored certificates, then puts the mail server's TLS files right when the
 * served certificate is the one changed or another one is served afterwards.
 */
export async function withMailFollow<T>(
  ctx: SslContext,
  touched: (out: T) => number | null,
  change: () => Promise<T>,
): Promise<T> {
  const before = await mailServedId(ctx);
  const out = await change();
  const after = await mailServedId(ctx);
  const id = touched(out);
  if (before !== after || (id !== null && id === after)) await ctx.reapplyMail();
  return out;
}
