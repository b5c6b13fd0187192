import { ApiError } from '../../api/client.ts';

/**
 * Every field error a failed call carries: the validation list (`details: [{field, message}]`) and
 * Apache's refusal mapped to a field (`details: {field, fields: [{field, message}], output}`).
 */
export function apiFieldErrors(err: unknown): Record<string, string> {
  if (!(err instanceof ApiError)) return {};
  const out: Record<string, string> = { ...err.fieldErrors };
  const d = err.details as { fields?: unknown; field?: unknown } | null;
  if (d && !Array.isArray(d) && typeof d === 'object') {
    if (Array.isArray(d.fields))
      for (const f of d.fields as unknown[]) {
        const { field, message } = (f ?? {}) as { field?: unknown; message?: unknown };
        if (typeof field === 'string' && typeof message === 'string' && !(field in out)) out[field] = message;
      }
    if (typeof d.field === 'string' && !(d.field in out)) out[d.field] = err.message;
  }
  return out;
}

/**
 * The server's field errors as form errors: `serverAlias.2` (an item of a list the form edits as
 * text) lands on `serverAlias`; the first message per field wins. `known` limits them to the form's
 * fields; an error for anything else is the caller's to show.
 */
export function formErrorsFrom(
  fieldErrors: Record<string, string>,
  known: readonly string[],
): { errors: Record<string, string>; rest: string[] } {
  const errors: Record<string, string> = {};
  const rest: string[] = [];
  for (const [key, message] of Object.entries(fieldErrors)) {
    const field = key.replace(/^body\./, '').split('.')[0] ?? key;
    if (known.includes(field)) {
      if (!(field in errors)) errors[field] = message;
    } else rest.push(message);
  }
  return { errors, rest };
}

/** What a failed save says outside the fields: Apache's own output when given. */
export function saveProblem(err: unknown): { output: string | null } {
  if (!(err instanceof ApiError)) return { output: null };
  const d = err.details as { output?: unknown } | null;
  return { output: d && !Array.isArray(d) && typeof d.output === 'string' ? d.output : null };
}

/**
 * Saved, but not live: the change is stored and the last good files are serving (the reload or
 * the probe failed; 502). The page's apply outcome offers Retry.
 */
export function savedNotLive(err: unknown): boolean {
  return err instanceof ApiError && err.status === 502;
}
