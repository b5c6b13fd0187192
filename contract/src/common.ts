import { z } from 'zod';

/** `?q=&limit=&offset=&sort=` on every list; the total goes in the X-Total-Count header. */
export const ListQuery = z.object({
  q: z.string().max(500).optional(),
  limit: z.coerce.number().int().min(1).max(1000).optional(),
  offset: z.coerce.number().int().min(0).optional(),
  sort: z
    .string()
    .regex(/^-?[a-zA-Z_]+$/, 'sort must be a field name, optionally prefixed with -')
    .optional(),
});
export type ListQuery = z.infer<typeof ListQuery>;

export const TOTAL_COUNT_HEADER = 'x-total-count';

/** Answer of a simple state-changing call. */
export const OkResponse = z.object({ success: z.literal(true), message: z.string().optional() });
export type OkResponse = z.infer<typeof OkResponse>;
