import { z } from 'zod';
import { queryInt } from './validators.ts';

/** `?q=&limit=&offset=&sort=` on every list; the total goes in the X-Total-Count header. */
export const ListQuery = z.object({
  q: z.string().max(500).optional(),
  limit: queryInt(1, 1000, 'limit').optional(),
  offset: queryInt(0, undefined, 'offset').optional(),
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
