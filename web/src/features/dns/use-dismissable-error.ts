import { useState } from 'react';
import { errorMessage } from '../../api/client.ts';

/**
 * The message of a failed load until the user dismisses it; a later failure (a new error object)
 * shows again.
 */
export function useDismissableError(error: unknown): { message: string | null; dismiss: () => void } {
  const [dismissed, setDismissed] = useState<unknown>(null);
  const message = error && error !== dismissed ? errorMessage(error) : null;
  return { message, dismiss: () => setDismissed(error) };
}
