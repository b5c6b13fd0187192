import { z } from 'zod';
import { defineRoute } from './route.ts';

/**
 * applied: the target's files are live and match the database.
 * failed: a change is saved but NOT live (a check, the swap or a reload failed after the commit);
 *   the last good files are back in place; Retry applies the saved state again.
 * refused: the checker refused a change before it was saved; nothing changed.
 * pending: an apply is running (or the server stopped during one; Retry finishes it).
 */
export const ApplyState = z.enum(['applied', 'failed', 'refused', 'pending']);

export const ApplyOutcome = z.object({
  /** mail, dns, … */
  target: z.string(),
  state: ApplyState,
  /** The step that failed: prove, swap, reload, commit; null when applied. */
  step: z.enum(['prove', 'swap', 'reload', 'commit']).nullable(),
  message: z.string(),
  /** The checker's or reload command's own words. */
  output: z.string(),
  changed: z.object({ written: z.array(z.string()), removed: z.array(z.string()) }),
  at: z.string(),
  appliedAt: z.string().nullable(),
  actor: z.string().nullable(),
});
export type ApplyOutcome = z.infer<typeof ApplyOutcome>;

export const ApplyTargetParams = z.object({
  target: z.string().regex(/^[a-z][a-z0-9-]{0,30}$/, 'Unknown apply target'),
});

export const applyRoutes = {
  list: defineRoute({
    method: 'GET',
    path: 'apply',
    summary: 'The last apply of each target (mail, dns, …): live, or saved but not live, and why',
    tags: ['apply'],
    response: z.array(ApplyOutcome),
  }),
  retry: defineRoute({
    method: 'POST',
    path: 'apply/:target/retry',
    summary: 'Renders the saved state of a target again and puts it live (502 when it still fails)',
    tags: ['apply'],
    params: ApplyTargetParams,
    response: ApplyOutcome,
    audit: 'apply.retry',
  }),
};
