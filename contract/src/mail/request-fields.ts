import { domainField, emailField, strictNumber } from '../validators.ts';
import { MAX_QUOTA_BYTES } from './constants.ts';
import { aliasSourceField } from './fields.ts';
import { z } from 'zod';

// ---------- request fields shared by the entities (not re-exported) ----------

export const quotaBytes = strictNumber(
  z
    .number({ error: 'Quota must be a number' })
    .int('Quota must be a whole number of bytes')
    .min(0, 'Quota must be at least 0')
    .max(MAX_QUOTA_BYTES, `Quota must be at most ${MAX_QUOTA_BYTES} bytes`),
);

/** Create the domain if it is not a mail domain yet (off: an unknown domain is refused). */
export const createDomainFlag = z.boolean({ error: 'createDomain must be true or false' }).optional();

export const emailParam = z.object({ email: emailField('Email').transform((v) => v.toLowerCase()) });
export const sourceParam = z.object({
  source: aliasSourceField('Source Email').transform((v) => v.toLowerCase()),
});
export const domainParam = z.object({ domain: domainField('Domain').transform((v) => v.toLowerCase()) });
