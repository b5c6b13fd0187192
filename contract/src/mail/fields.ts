import { fieldMessages } from '../messages.ts';
import { emailField } from '../validators.ts';
import { z } from 'zod';

// ---------- fields ----------

/** One or more destination addresses, comma separated; each must be a valid email. */
export const destinationField = (label: string) => {
  // Built once per field: making a zod schema per address costs ~60 µs, too slow for imports.
  const one = emailField(label);
  return z
    .string({ error: fieldMessages.required(label) })
    .trim()
    .min(1, fieldMessages.required(label))
    .max(8000, `${label} must be at most 8000 characters`)
    .superRefine((value, ctx) => {
      const parts = value.split(',').map((p) => p.trim());
      if (parts.some((p) => p === '')) {
        ctx.addIssue({ code: 'custom', message: fieldMessages.email });
        return;
      }
      for (const p of parts) {
        if (!one.safeParse(p).success) {
          ctx.addIssue({ code: 'custom', message: fieldMessages.email });
          return;
        }
      }
    })
    .transform((value) => [...new Set(value.split(',').map((p) => p.trim().toLowerCase()))].join(','));
};

/** Splits a stored destination list into its addresses. */
export const splitDestinations = (destination: string): string[] =>
  destination
    .split(',')
    .map((p) => p.trim())
    .filter((p) => p !== '');

/** `@domain`: a catch-all alias source (mail to any unknown address of the domain). */
export const CATCH_ALL_RE = /^@(?=.{1,253}$)([a-zA-Z0-9]([a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?\.)+[a-zA-Z]{2,}$/;
export const isCatchAll = (source: string): boolean => source.startsWith('@');

/** An alias source: an address, or `@domain` for the domain's catch-all. */
export const aliasSourceField = (label: string) => {
  const email = emailField(label);
  return z
    .string({ error: fieldMessages.required(label) })
    .trim()
    .min(1, fieldMessages.required(label))
    .superRefine((v, ctx) => {
      if (CATCH_ALL_RE.test(v)) return;
      const r = email.safeParse(v);
      if (!r.success) ctx.addIssue({ code: 'custom', message: r.error.issues[0]!.message });
    });
};
