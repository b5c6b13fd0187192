import { z } from 'zod';
import { fieldMessages } from './messages.ts';

// The spec's email check: something@something.tld, no spaces.
const EMAIL_RE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
// Domain: a label starting with a letter or digit (≤ 63), dots, a top-level part of ≥ 2 letters.
export const DOMAIN_RE = /^(?=.{1,253}$)([a-zA-Z0-9]([a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?\.)+[a-zA-Z]{2,}$/;

export const requiredString = (label: string) =>
  z
    .string({ error: fieldMessages.required(label) })
    .trim()
    .min(1, fieldMessages.required(label));

export const emailField = (label: string) =>
  requiredString(label).max(254, fieldMessages.email).regex(EMAIL_RE, fieldMessages.email);

export const passwordField = (label: string, min: number) =>
  z
    .string({ error: fieldMessages.required(label) })
    .min(1, fieldMessages.required(label))
    .min(min, fieldMessages.minLength(label, min))
    .max(1024, `${label} must be at most 1024 characters`);

export const domainField = (label: string) => requiredString(label).regex(DOMAIN_RE, fieldMessages.domain);

/** A required whole number with a minimum, with the spec's messages. */
export const requiredInt = (label: string, min: number, max?: number) => {
  let s = z.coerce
    .number({ error: fieldMessages.required(label) })
    .int(`${label} must be a whole number`)
    .min(min, fieldMessages.min(label, min));
  if (max !== undefined) s = s.max(max, fieldMessages.max(label, max));
  return s;
};
