import { servedMailCertificateId } from './mail-tls.ts';
import type { SslContext } from './ssl-context.ts';
import { readSslSettings } from './ssl-settings.service.ts';

export const MAIL_USE = 'mail server';

/** Which certificate the mail server serves now (chosen, or the host name's). */
export async function mailServedId(ctx: SslContext): Promise<number | null> {
  const { mailCertificateId } = await readSslSettings(ctx.db);
  return servedMailCertificateId(ctx.db, await ctx.mailHostname(), mailCertificateId);
}

export const usesOf = (id: number, served: number | null): string[] => (id === served ? [MAIL_USE] : []);

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
