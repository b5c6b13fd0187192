import { passwordField } from '../validators.ts';
import { DEVICE_TYPES, POLICY_METHODS } from './constants.ts';
import { deviceName, code } from './fields.ts';
import { z } from 'zod';

export const MfaDevice = z.object({
  id: z.number().int(),
  deviceName: z.string(),
  deviceType: z.enum(DEVICE_TYPES),
  status: z.enum(['active', 'inactive', 'pending']),
  createdAt: z.string(),
  lastUsed: z.string().nullable(),
  isPrimary: z.boolean(),
  trustedDevice: z.boolean(),
  userEmail: z.string(),
});
export type MfaDevice = z.infer<typeof MfaDevice>;

export const BackupCodeCounts = z.object({
  available: z.number().int(),
  used: z.number().int(),
  expired: z.number().int(),
});

export const AccountMfa = z.object({
  email: z.string(),
  enrolRequired: z.boolean(),
  devices: z.array(MfaDevice),
  backupCodes: BackupCodeCounts,
  backupCodesEnabled: z.boolean(),
  allowedMethods: z.array(z.enum(POLICY_METHODS)),
  /** Until when security changes are allowed without proving password or code again (ISO), or null. */
  reauthUntil: z.string().nullable(),
});
export type AccountMfa = z.infer<typeof AccountMfa>;

export const ReauthRequest = z
  .object({
    password: z.string().min(1, 'Password is required').max(1024).optional(),
    code: code.optional(),
  })
  .refine((v) => v.password !== undefined || v.code !== undefined, {
    message: 'Password or code is required',
    path: ['password'],
  });
export const ReauthResponse = z.object({ success: z.literal(true), reauthUntil: z.string() });

export const TotpStartRequest = z.object({ deviceName });
export const TotpStart = z.object({
  deviceId: z.number().int(),
  secret: z.string(),
  otpauthUrl: z.string(),
  /** The otpauth URL as a QR code (SVG text). */
  qrSvg: z.string(),
});
export type TotpStart = z.infer<typeof TotpStart>;

export const TotpConfirmRequest = z.object({ code });
export const DeviceIdParams = z.object({ id: z.coerce.number().int().positive() });

export const BackupCodesAnswer = z.object({
  /** Shown once: only hashes are stored. */
  codes: z.array(z.string()),
  expiresAt: z.string(),
});
export type BackupCodesAnswer = z.infer<typeof BackupCodesAnswer>;

export const PasswordChangeRequest = z.object({
  currentPassword: z.string().min(1, 'Current Password is required').max(1024),
  newPassword: passwordField('New Password', 12),
});

export const WebauthnRegisterStartRequest = z.object({ deviceName });
export const WebauthnRegisterFinishRequest = z.object({
  deviceName,
  /** RegistrationResponseJSON from @simplewebauthn/browser's startRegistration. */
  credential: z.record(z.string(), z.unknown()),
});
