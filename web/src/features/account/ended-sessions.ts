import { clearLogin } from '../../api/auth-store.ts';
import { queryClient } from '../../api/query-client.ts';

/** After a factor is removed or the password changed every session has ended: back to the sign-in. */
export function sessionsEnded(message: string): void {
  queryClient.clear();
  clearLogin(message);
}
