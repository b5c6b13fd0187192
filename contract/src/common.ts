import { z } from 'zod';
import { queryInt } from './validators.ts';

/** Longest cursor accepted (a cursor carries a sort value, e.g. a 254-character address). */
export const MAX_CURSOR_LENGTH = 2048;

/**
 * `?q=&limit=&offset=&sort=` on every list; the total goes in the X-Total-Count header.
 * Lists that page by key also take `cursor`: the opaque value of an `X-Next-Cursor` (or
 * `X-Prev-Cursor`) header of an earlier page with the same sort; it replaces `offset`, and any page
 * reached with it costs what the first page costs.
 */
export const ListQuery = z.object({
  q: z.string().max(500).optional(),
  limit: queryInt(1, 1000, 'limit').optional(),
  offset: queryInt(0, undefined, 'offset').optional(),
  cursor: z
    .string()
    .min(1, 'cursor must not be empty')
    .max(MAX_CURSOR_LENGTH, `cursor must be at most ${MAX_CURSOR_LENGTH} characters`)
    .regex(/^[A-Za-z0-9_-]+$/, 'cursor must be a value from X-Next-Cursor or X-Prev-Cursor')
    .optional(),
  sort: z
    .string()
    .regex(/^-?[a-zA-Z_]+$/, 'sort must be a field name, optionally prefixed with -')
    .optional(),
});
export type ListQuery = z.infer<typeof ListQuery>;

export const TOTAL_COUNT_HEADER = 'x-total-count';
/**
 * A search or log can match more rows than is worth counting on every page: its count stops at
 * this many. `X-Total-Capped: true` (or `totalCapped` in a body) then says X-Total-Count is that
 * floor: the list holds more.
 */
export const TOTAL_CAP = 10_000;
export const TOTAL_CAPPED_HEADER = 'x-total-capped';
/** Cursor of the page after this one (absent on the last page). */
export const NEXT_CURSOR_HEADER = 'x-next-cursor';
/** Cursor of the page before this one (absent on the first page). */
export const PREV_CURSOR_HEADER = 'x-prev-cursor';

/** Formats of the streamed whole-table exports (`…/export?format=`). */
export const EXPORT_FORMATS = ['csv', 'json'] as const;
export const ExportQuery = z.object({
  format: z
    .enum(EXPORT_FORMATS, { error: `format must be one of ${EXPORT_FORMATS.join(', ')}` })
    .optional()
    .default('csv'),
});
export type ExportQuery = z.input<typeof ExportQuery>;

/** Answer of a simple state-changing call. */
export const OkResponse = z.object({ success: z.literal(true), message: z.string().optional() });
export type OkResponse = z.infer<typeof OkResponse>;
