import { authRoutes } from './auth-routes.ts';
import { clearLogin } from './auth-store.ts';
import { apiCall } from './client.ts';
import { queryClient } from './query-client.ts';

/** Revokes the session on the server (best effort), then forgets it here. */
export async function signOut(): Promise<void> {
  try {
    await apiCall(authRoutes.logout);
  } catch {
    // The key is dropped locally either way; an unreachable server must not keep anyone signed in.
  }
  clearLogin();
  queryClient.clear();
}
