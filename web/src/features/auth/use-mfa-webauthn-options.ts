import { authRoutes } from '../../api/auth-routes.ts';
import { apiCall } from '../../api/client.ts';

/*
 * /login carries no data layer (TanStack Query comes with the shell chunk, so the sign-in page
 * stays small): the sign-in hooks hand back the call itself, not a react-query mutation.
 */

const options = (challenge: string) => apiCall(authRoutes.mfaWebauthnOptions, { body: { challenge } });

/** The WebAuthn options the browser hands to the passkey for the challenge. */
export function useMfaWebauthnOptions() {
  return options;
}
