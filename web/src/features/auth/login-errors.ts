import { loginMessages } from '@mailroom/contract/messages';
import { ApiError, NETWORK_ERROR_STATUS } from '../../api/client.ts';

/** Spec §8 login screen messages; a throttled sign-in shows the server's own words. */
export function loginErrorMessage(err: unknown): string {
  if (err instanceof ApiError) {
    if (err.status === 401) return loginMessages.unauthorized;
    if (err.status === NETWORK_ERROR_STATUS) return loginMessages.connection;
    if (err.status === 429 && err.serverMessage) return err.serverMessage;
  }
  return loginMessages.other;
}
