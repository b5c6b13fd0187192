import { emailField } from '../validators.ts';
import { code } from './fields.ts';
import { z } from 'zod';

export const MfaEmailRequest = z.object({ email: emailField('Email') });

export const Lockout = z.object({
  id: z.number().int(),
  userId: z.number().int(),
  userEmail: z.string(),
  userName: z.string(),
  lockoutType: z.string(),
  reason: z.string(),
  lockedAt: z.string(),
  expiresAt: z.string(),
  unlockedAt: z.string().nullable(),
  unlockedBy: z.string().nullable(),
  attempts: z.number().int(),
  ipAddress: z.string().nullable(),
  status: z.enum(['active', 'expired', 'unlocked']),
});
export type Lockout = z.infer<typeof Lockout>;

export const RecoveryRequest = z.object({
  id: z.number().int(),
  userId: z.number().int(),
  userEmail: z.string(),
  userName: z.string(),
  requestType: z.string(),
  status: z.enum(['pending', 'approved', 'rejected']),
  requestedAt: z.string(),
  resolvedAt: z.string().nullable(),
  resolvedBy: z.string().nullable(),
  reason: z.string(),
  details: z.string().nullable(),
  ipAddress: z.string().nullable(),
  userAgent: z.string().nullable(),
});
export type RecoveryRequest = z.infer<typeof RecoveryRequest>;

export const BackupCodeRow = z.object({
  id: z.number().int(),
  userId: z.number().int(),
  userEmail: z.string(),
  /** Only the last characters: the code itself is shown once, at generation. */
  code: z.string(),
  used: z.boolean(),
  usedAt: z.string().nullable(),
  createdAt: z.string(),
  expiresAt: z.string(),
});
export type BackupCodeRow = z.infer<typeof BackupCodeRow>;

export const RecoveryMethod = z.object({
  id: z.number().int(),
  userId: z.number().int(),
  userEmail: z.string(),
  methodType: z.enum(['Email', 'SMS']),
  methodValue: z.string(),
  status: z.string(),
  createdAt: z.string(),
  lastUsed: z.string().nullable(),
  verified: z.boolean(),
});
export type RecoveryMethod = z.infer<typeof RecoveryMethod>;

export const MfaRecovery = z.object({
  requests: z.array(RecoveryRequest),
  lockouts: z.array(Lockout),
  backupCodes: z.array(BackupCodeRow),
  recoveryMethods: z.array(RecoveryMethod),
});
export type MfaRecovery = z.infer<typeof MfaRecovery>;

export const IdParams = z.object({ id: z.coerce.number().int().positive() });

export const RecoveryEmailRequest = z.object({ email: emailField('Email') });
export const RecoveryVerifyRequest = z.object({ code });
