import { ACTIVITY_ACTIONS } from './constants.ts';
import { MfaPolicy } from './policy.ts';
import { MfaUser } from './users.ts';
import { z } from 'zod';

export const MfaActivity = z.object({
  id: z.number().int(),
  action: z.enum(ACTIVITY_ACTIONS),
  status: z.enum(['success', 'failed']),
  userEmail: z.string(),
  timestamp: z.string(),
  ipAddress: z.string().nullable(),
});
export type MfaActivity = z.infer<typeof MfaActivity>;

export const MfaStats = z.object({
  totalUsers: z.number().int(),
  mfaEnabledUsers: z.number().int(),
  mfaDisabledUsers: z.number().int(),
  totalMfaDevices: z.number().int(),
  activeMfaDevices: z.number().int(),
  backupCodesGenerated: z.number().int(),
  backupCodesUsed: z.number().int(),
  lastMfaActivity: z.string().nullable(),
  /** Percent of second-factor sign-ins that succeeded (null: none yet). */
  mfaSuccessRate: z.number().nullable(),
  mfaFailureRate: z.number().nullable(),
});
export type MfaStats = z.infer<typeof MfaStats>;

export const MfaDashboard = z.object({
  stats: MfaStats,
  users: z.array(MfaUser),
  policies: z.array(MfaPolicy),
  activity: z.array(MfaActivity),
});
export type MfaDashboard = z.infer<typeof MfaDashboard>;

export const MfaStatus = z.object({
  serviceActive: z.boolean(),
  methods: z.array(z.object({ name: z.string(), available: z.boolean(), note: z.string().nullable() })),
  lastActivity: z.string().nullable(),
});
export type MfaStatus = z.infer<typeof MfaStatus>;
