import { z } from 'zod';
import { fieldMessages } from '../messages.ts';
import { requiredInt, strictNumber } from '../validators.ts';

/** '{Field label} format is invalid' (spec 3 §5: forms with a format check). */
export const formatInvalid = (label: string) => `${label} format is invalid`;

/** CR, LF or NUL: never in a single-line field (they would start a new Apache directive). */
// eslint-disable-next-line no-control-regex
export const LINE_BREAK_RE = /[\r\n\u0000]/;
export const lineBreakMessage = (label: string) => `${label} must be a single line`;
// eslint-disable-next-line no-control-regex
const NUL_RE = /\u0000/;

/** A single-line text field: CR/LF/NUL refused (400, nothing written). */
export const lineField = (label: string, max = 1000) =>
  z
    .string({ error: fieldMessages.required(label) })
    .trim()
    .max(max, `${label} must be at most ${max} characters`)
    .refine((v) => !LINE_BREAK_RE.test(v), lineBreakMessage(label));

export const requiredLine = (label: string, max = 1000) =>
  lineField(label, max).refine((v) => v.length > 0, fieldMessages.required(label));

/** Multi-line text (custom directives): NUL refused. */
export const textField = (label: string, max = 20_000) =>
  z
    .string({ error: fieldMessages.required(label) })
    .max(max, `${label} must be at most ${max} characters`)
    .refine((v) => !NUL_RE.test(v), `${label} must not contain NUL characters`);

/** Whole number with the spec's messages; `max` optional. */
export const intField = (label: string, min: number, max?: number) => requiredInt(label, min, max);

/** Optional whole number (empty or absent: null). */
export const optionalInt = (label: string, min: number, max?: number) =>
  z.preprocess(
    (v) => (v === '' ? null : v),
    strictNumber(
      (() => {
        let s = z
          .number({ error: `${label} must be a whole number` })
          .int(`${label} must be a whole number`)
          .min(min, fieldMessages.min(label, min));
        if (max !== undefined) s = s.max(max, fieldMessages.max(label, max));
        return s;
      })(),
    ).nullable(),
  );

/** A size such as 128M, 2M, 1G (php.ini / logrotate shorthand). */
export const SIZE_RE = /^[1-9][0-9]{0,8}[KMG]?$/;
export const sizeField = (label: string) =>
  requiredLine(label, 12).refine((v) => v === '' || SIZE_RE.test(v), formatInvalid(label));

/** Absolute POSIX path: starts with /, no `..` segment, single line, printable. */
export const ABS_PATH_RE = /^\/(?!.*(?:^|\/)\.\.(?:\/|$))[^\0\r\n]*$/;
export const pathField = (label: string) =>
  requiredLine(label, 1000).refine((v) => v === '' || ABS_PATH_RE.test(v), formatInvalid(label));
export const optionalPathField = (label: string) =>
  lineField(label, 1000).refine((v) => v === '' || ABS_PATH_RE.test(v), formatInvalid(label));

// ---------- host names (IDN stored as punycode) ----------

// The spec's pattern as a floor: labels of letters, digits, hyphens (≤ 63, alphanumeric at both ends),
// a dot, and a top-level part of ≥ 2 letters, or an IDN top-level part (xn--…). A bare name is refused.
export const WEB_HOST_RE =
  /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+([a-z]{2,63}|xn--[a-z0-9-]{1,59})$/;

/**
 * A host name as punycode (lower case): `bücher.example` -> `xn--bcher-kva.example`. Answers null
 * when it is not a valid multi-label name. Uses the WHATWG URL parser (Node and browsers).
 */
export function toAsciiHost(input: string): string | null {
  const v = input.trim().replace(/\.$/, '');
  if (v === '' || /[\s/\\:@?#%[\]]/.test(v) || LINE_BREAK_RE.test(v)) return null;
  let ascii: string;
  try {
    ascii = new URL(`http://${v}/`).hostname;
  } catch {
    return null;
  }
  return WEB_HOST_RE.test(ascii) ? ascii : null;
}

/** Required host name field; the output is punycode. */
export const hostNameField = (label: string) =>
  z
    .string({ error: fieldMessages.required(label) })
    .trim()
    .min(1, fieldMessages.required(label))
    .max(253, formatInvalid(label))
    .refine((v) => !LINE_BREAK_RE.test(v), lineBreakMessage(label))
    .refine((v) => LINE_BREAK_RE.test(v) || toAsciiHost(v) !== null, formatInvalid(label))
    .transform((v) => toAsciiHost(v) ?? v);

// ---------- IP addresses ----------

const IPV4_RE = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;
const IPV6_RE = /^[0-9a-fA-F:]{2,39}$/;

/** An IPv4/IPv6 address, optionally with a CIDR prefix. */
export function isIpOrCidr(v: string): boolean {
  const [addr, prefix, extra] = v.split('/');
  if (extra !== undefined || addr === undefined) return false;
  const v4 = IPV4_RE.test(addr);
  const v6 = !v4 && IPV6_RE.test(addr) && addr.includes(':') && (addr.match(/::/g)?.length ?? 0) <= 1;
  if (!v4 && !v6) return false;
  if (prefix === undefined) return true;
  if (!/^\d{1,3}$/.test(prefix)) return false;
  return Number(prefix) <= (v4 ? 32 : 128);
}

/** The listen address of a virtual host: `*` or one IP address. */
export const listenAddressField = (label: string) =>
  requiredLine(label, 45).refine(
    (v) => v === '' || v === '*' || (isIpOrCidr(v) && !v.includes('/')),
    formatInvalid(label),
  );

/** Splits comma-separated form text into trimmed, non-empty, unique items. */
export const splitList = (text: string): string[] => [
  ...new Set(
    text
      .split(',')
      .map((s) => s.trim())
      .filter((s) => s !== ''),
  ),
];
export const joinList = (items: readonly string[]): string => items.join(', ');

/** A list of IP addresses or CIDR ranges (API: array; the form edits comma-separated text). */
export const ipListField = (label: string) =>
  z
    .array(lineField(label, 64), { error: `${label} must be a list of IP addresses` })
    .max(500, `${label} must have at most 500 entries`)
    .superRefine((list, ctx) => {
      for (const ip of list) {
        if (!isIpOrCidr(ip)) {
          ctx.addIssue({ code: 'custom', message: `${formatInvalid(label)}: ${ip}` });
          return;
        }
      }
    });
