import { z } from 'zod';

/** The one shape of every error answer. */
export const ErrorResponse = z.object({
  code: z.string(),
  message: z.string(),
  details: z.unknown().nullable(),
  timestamp: z.string(),
  retryable: z.boolean(),
});
export type ErrorResponse = z.infer<typeof ErrorResponse>;

/** Per-field validation details: `{ field, message }` for each problem. */
export const FieldError = z.object({ field: z.string(), message: z.string() });
export type FieldError = z.infer<typeof FieldError>;

export const ERROR_CODES = {
  VALIDATION: 'VALIDATION_ERROR',
  BAD_REQUEST: 'BAD_REQUEST',
  UNAUTHORIZED: 'UNAUTHORIZED',
  FORBIDDEN: 'FORBIDDEN',
  NOT_FOUND: 'NOT_FOUND',
  CONFLICT: 'CONFLICT',
  PAYLOAD_TOO_LARGE: 'PAYLOAD_TOO_LARGE',
  RATE_LIMITED: 'RATE_LIMITED',
  CHECK_FAILED: 'CHECK_FAILED',
  /** Saved, but not live: the swap or a reload failed after the commit (the last good files stay). */
  APPLY_FAILED: 'APPLY_FAILED',
  INTERNAL: 'INTERNAL_ERROR',
} as const;
