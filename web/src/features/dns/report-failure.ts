import { ApiError, errorMessage } from '../../api/client.ts';
import { notify } from '../../lib/notifications-store.ts';

/** Tells the user what failed (the server's words) and puts per-field messages on the form. */
export function reportFailure(
  title: string,
  err: unknown,
  form?: { setErrors: (e: Record<string, string>) => void },
): void {
  if (form && err instanceof ApiError && Object.keys(err.fieldErrors).length > 0)
    form.setErrors(err.fieldErrors);
  notify({ type: 'error', title, message: errorMessage(err) });
}
