import type { BodyOf } from '@mailroom/contract/route';
import { authRoutes } from '../../api/auth-routes.ts';
import { apiCall } from '../../api/client.ts';

/*
 * /login carries no data layer (TanStack Query comes with the shell chunk, so the sign-in page
 * stays small): the sign-in hooks hand back the call itself, not a react-query mutation.
 */

const requestRecovery = (body: BodyOf<typeof authRoutes.mfaRecovery>) =>
  apiCall(authRoutes.mfaRecovery, { body });

/** "Lost my device": asks the administrators to reset the account's second factors. */
export function useRequestMfaRecovery() {
  return requestRecovery;
}
