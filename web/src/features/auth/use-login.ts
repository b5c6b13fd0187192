import { authRoutes } from '../../api/auth-routes.ts';
import { apiCall } from '../../api/client.ts';
import type { LoginValues } from './login-form-state.ts';

/*
 * /login carries no data layer (TanStack Query comes with the shell chunk, so the sign-in page
 * stays small): the sign-in hooks hand back the call itself, not a react-query mutation.
 */

const login = (body: LoginValues) => apiCall(authRoutes.login, { body });

/** Signs in with e-mail and password: a session, or the second-factor challenge. */
export function useLogin() {
  return login;
}
