import { ApiError } from '../../api/client.ts';

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

/** What a failed save says outside the fields: the message, and Apache's own output when given. */
export function saveProblem(err: unknown): { output: string | null } {
  if (!(err instanceof ApiError)) return { output: null };
  const d = err.details as { output?: unknown } | null;
  return { output: d && !Array.isArray(d) && typeof d.output === 'string' ? d.output : null };
}
