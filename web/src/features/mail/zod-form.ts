import type { z } from 'zod';

/**
 * A Mantine form `validate` function from a contract schema, so forms show the same messages the
 * server answers. Paths join with dots (`mxRecords.0.host`), as Mantine names nested fields; the
 * first message per field wins.
 */
export function zodValidate<T>(schema: z.ZodType): (values: T) => Record<string, string> {
  return (values) => {
    const result = schema.safeParse(values);
    if (result.success) return {};
    const errors: Record<string, string> = {};
    for (const issue of result.error.issues) {
      const key = issue.path.map(String).join('.');
      if (!(key in errors)) errors[key] = issue.message;
    }
    return errors;
  };
}
