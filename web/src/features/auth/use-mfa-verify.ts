import { authRoutes } from '../../api/auth-routes.ts';
import { apiCall } from '../../api/client.ts';

/*
 * /login carries no data layer (TanStack Query comes with the shell chunk, so the sign-in page
 * stays small): the sign-in hooks hand back the call itself, not a react-query mutation.
 */

const verify = (body: Record<string, unknown>) => apiCall(authRoutes.mfaVerify, { body: body as never });

/** Completes a sign-in with the second factor (a code or a passkey's answer). */
export function useMfaVerify() {
  return verify;
}
