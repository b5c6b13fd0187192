import { authRoutes } from '../../api/auth-routes.ts';
import { apiCall } from '../../api/client.ts';

/*
 * /login carries no data layer (TanStack Query comes with the shell chunk, so the sign-in page
 * stays small): the sign-in hooks hand back the call itself, not a react-query mutation.
 */

const mailCode = (challenge: string) => apiCall(authRoutes.mfaEmailCode, { body: { challenge } });

/** Mails a sign-in code for the challenge to the account's verified recovery address. */
export function useMfaEmailCode() {
  return mailCode;
}
