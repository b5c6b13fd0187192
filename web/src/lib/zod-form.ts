import type { z } from 'zod';

/**
 * A Mantine form `validate` function from a contract schema, so the form shows the messages the
 * server answers. `toInput` turns form values into the request first (empty number inputs become
 * undefined, so they read 'X is required'). The first message per field wins.
 */
export function zodValidate<T>(schema: z.ZodType, toInput: (values: T) => unknown = (v) => v) {
  return (values: T): Record<string, string> => {
    const result = schema.safeParse(toInput(values));
    if (result.success) return {};
    const errors: Record<string, string> = {};
    for (const issue of result.error.issues) {
      const key = issue.path.map(String).join('.');
      if (!(key in errors)) errors[key] = issue.message;
    }
    return errors;
  };
}

/** A Mantine NumberInput value: a number, or '' while empty. */
export type NumberField = number | string;

/** '' (and anything not a finite number) → undefined, so the schema says the field is required. */
export function numberOrUndefined(v: NumberField | null | undefined): number | undefined {
  if (v === '' || v === null || v === undefined) return undefined;
  const n = typeof v === 'number' ? v : Number(v);
  return Number.isFinite(n) ? n : undefined;
}
