import { z } from 'zod';
import { fieldMessages } from './messages.ts';

// Domain: a label starting with a letter or digit (≤ 63), dots, a top-level part of ≥ 2 letters.
// The length look-ahead comes first, so the rest never runs over more than 253 characters.
export const DOMAIN_RE = /^(?=.{1,253}$)([a-zA-Z0-9]([a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?\.)+[a-zA-Z]{2,}$/;

/** Longest address accepted anywhere (RFC 5321 path limit). */
export const MAX_EMAIL_LENGTH = 254;

/**
 * C0/C1 control characters, DEL and invisible format characters (zero-width space, joiners,
 * direction marks, BOM): never part of an address or a host name.
 */
// eslint-disable-next-line no-control-regex
const INVISIBLE_RE = /[\u0000-\u001f\u007f-\u009f\u00ad\u200b-\u200f\u2028-\u202e\u2060-\u206f\ufeff]/;
export const hasInvisibleCharacters = (v: string) => INVISIBLE_RE.test(v);

const WHITESPACE_OR_AT = /[\s@]/;

/**
 * The spec's email check (something@something.tld, no spaces), as a linear scan rather than a
 * backtracking pattern, and without control or invisible characters.
 */
export function isEmailAddress(v: string): boolean {
  if (v.length > MAX_EMAIL_LENGTH) return false;
  const at = v.indexOf('@');
  if (at <= 0) return false;
  const local = v.slice(0, at);
  const domain = v.slice(at + 1);
  if (WHITESPACE_OR_AT.test(local) || WHITESPACE_OR_AT.test(domain) || INVISIBLE_RE.test(v)) return false;
  const dot = domain.indexOf('.', 1);
  return dot > 0 && dot < domain.length - 1;
}

export const requiredString = (label: string) =>
  z
    .string({ error: fieldMessages.required(label) })
    .trim()
    .min(1, fieldMessages.required(label));

export const emailField = (label: string) =>
  requiredString(label)
    .max(MAX_EMAIL_LENGTH, fieldMessages.email)
    .refine((v) => isEmailAddress(v), fieldMessages.email);

export const passwordField = (label: string, min: number) =>
  z
    .string({ error: fieldMessages.required(label) })
    .min(1, fieldMessages.required(label))
    .min(min, fieldMessages.minLength(label, min))
    .max(1024, `${label} must be at most 1024 characters`);

export const domainField = (label: string) => requiredString(label).regex(DOMAIN_RE, fieldMessages.domain);

// A plain decimal number: digits, an optional sign and fraction. Nothing else becomes a number.
const DECIMAL_RE = /^-?\d{1,20}(?:\.\d{1,20})?$/;

/**
 * Numbers are taken as JSON numbers or as plain decimal strings (form fields, query strings).
 * `""`, `null`, `[]`, `true`, `"0x10"`, `"1e3"` stay what they are, and the number check refuses
 * them, where `z.coerce` would have turned them into 0, 1, 16 or 1000.
 */
export function strictNumberInput(v: unknown): unknown {
  if (typeof v !== 'string') return v;
  const t = v.trim();
  return DECIMAL_RE.test(t) ? Number(t) : v;
}

/** A number from JSON or a decimal string; see `strictNumberInput`. */
export const strictNumber = <T extends z.ZodType<number>>(inner: T) => z.preprocess(strictNumberInput, inner);

/** A whole number in a query string (`?limit=`, `?offset=`), parsed strictly. */
export const queryInt = (min: number, max?: number, label?: string) => {
  const what = label ?? 'Value';
  let s = z.number({ error: `${what} must be a whole number` }).int(`${what} must be a whole number`);
  s = s.min(min, fieldMessages.min(what, min));
  if (max !== undefined) s = s.max(max, fieldMessages.max(what, max));
  return strictNumber(s);
};

/**
 * A required whole number with a minimum, with the spec's messages. `blankMessage`: what an empty
 * field says where the spec gives one message for both (mail settings: '{Label} must be at least 1').
 */
export const requiredInt = (label: string, min: number, max?: number, blankMessage?: string) => {
  const missing = fieldMessages.required(label);
  let s = z
    .number({ error: (iss) => (blankMessage && iss.input === '' ? blankMessage : missing) })
    .int(`${label} must be a whole number`)
    .min(min, fieldMessages.min(label, min));
  if (max !== undefined) s = s.max(max, fieldMessages.max(label, max));
  return strictNumber(s);
};

/**
 * Suffixes that never resolve on the public Internet (RFC 6762 .local, RFC 2606/6761 test names,
 * ICANN's .internal, and the usual private ones): a host named so cannot be reached by other
 * mail servers, resolvers or mail clients.
 */
const PRIVATE_SUFFIXES = [
  'local',
  'localdomain',
  'localhost',
  'internal',
  'intranet',
  'private',
  'lan',
  'home',
  'home.arpa',
  'corp',
  'test',
  'example',
  'invalid',
] as const;

/**
 * Why a host name is not a public fully qualified domain name (null: it is one). Used for the
 * warnings where a host name is published as a target: MX, NS, autoconfig (issue 22 item 16).
 */
export function nonPublicHostReason(host: string): string | null {
  const h = host.trim().toLowerCase().replace(/\.$/, '');
  if (!h) return 'it is empty';
  if (/^\d{1,3}(\.\d{1,3}){3}$/.test(h) || h.includes(':')) return 'it is an IP address, not a host name';
  if (!h.includes('.')) return 'it has no dot: not a fully qualified domain name';
  const suffix = PRIVATE_SUFFIXES.find((s) => h === s || h.endsWith(`.${s}`));
  return suffix ? `.${suffix} names are not resolvable on the public Internet` : null;
}

/** The warning for a host name used as `role` (e.g. "MX target"), or null when it is public. */
export function publicHostWarning(role: string, host: string): string | null {
  const why = nonPublicHostReason(host);
  return why
    ? `${role} ${host} is not a public host name (${why}): other servers and clients cannot reach it.`
    : null;
}
