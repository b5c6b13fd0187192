import type { Generated } from 'kysely';

export interface AdminTable {
  id: Generated<number>;
  email: string;
  password_hash: string;
  /** 'admin' | 'domain-admin' (migration 0018). */
  role: Generated<string>;
  created_at: string;
  updated_at: string;
  /** Set: the account of a mailbox user (migration 0019), who reaches only /account. */
  mailbox_id: Generated<number | null>;
}

export interface SessionTable {
  id: Generated<number>;
  token_hash: string;
  admin_id: number;
  created_at: number;
  last_seen_at: number;
  expires_at: number;
  ip: string | null;
  user_agent: string | null;
  /** 'enrol': the account must enrol a second factor first (migration 0013). */
  scope: string | null;
  /** When the holder last proved password or code again (security changes need it recent). */
  reauth_at: number | null;
}

export interface AuditTable {
  id: Generated<number>;
  at: string;
  actor: string | null;
  action: string;
  target: string | null;
  ip: string | null;
  outcome: string;
  details: string | null;
}

export interface LoginAttemptTable {
  id: Generated<number>;
  /** 'account:<email>' or 'ip:<address>' */
  bucket: string;
  at: number;
}

export interface CoreTables {
  admins: AdminTable;
  sessions: SessionTable;
  audit_log: AuditTable;
  login_attempts: LoginAttemptTable;
}
