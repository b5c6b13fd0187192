import type { Kysely } from 'kysely';
import type { AppDeps } from '../../app-deps.ts';
import type { Database } from '../../db/schema.ts';
import type { GuessThrottle } from '../../http/sign-in-step.ts';
import { SecretVault, VAULT_FILES } from '../../security/secret-vault.ts';

/** What the MFA services share: the database, the secret key and the clock. */
export interface MfaContext {
  db: Kysely<Database>;
  box: SecretVault;
  now(): number;
  /** Relying party for passkeys: the console's host name and origin(s). */
  rp: { id: string; name: string; origins: string[] };
  sessionAbsoluteMs: number;
  /** The local mail server's SMTP port on 127.0.0.1 (verification codes go through it). */
  smtpPort: number;
  /** A mailbox user's password change, through the mail feature's mailbox service. */
  changeMailboxPassword(email: string, password: string): Promise<void>;
  /** The envelope and header sender of code mails. */
  mailFrom(): Promise<string>;
  /** The sign-in's guess throttle, for re-authentication and "current password" checks. */
  guesses: GuessThrottle;
}

/** The sender when the mail settings give none (a test app without the mail feature). */
export const FALLBACK_MAIL_FROM = 'mailroom@localhost.localdomain';

export function mfaContext(
  deps: AppDeps,
  changeMailboxPassword: MfaContext['changeMailboxPassword'],
  guesses: GuessThrottle,
  mailFrom: MfaContext['mailFrom'] = async () => FALLBACK_MAIL_FROM,
): MfaContext {
  const rpId = process.env.MAILROOM_RP_ID ?? 'localhost';
  const origins = (process.env.MAILROOM_RP_ORIGINS ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  return {
    db: deps.database.db,
    box: SecretVault.open(deps.config.dataDir, VAULT_FILES.mfa),
    now: () => (deps.clock ? deps.clock() : Date.now()),
    rp: { id: rpId, name: 'Mailroom', origins },
    sessionAbsoluteMs: deps.config.sessionAbsoluteMs,
    smtpPort: deps.config.ports.smtp,
    changeMailboxPassword,
    mailFrom,
    guesses,
  };
}

export const iso = (ms: number) => new Date(ms).toISOString();
