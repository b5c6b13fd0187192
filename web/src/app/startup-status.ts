import type { authRoutes } from '../api/auth-routes.ts';
import type { ResponseOf } from '@mailroom/contract/route';
import { getApiKey } from '../api/auth-store.ts';

type Status = ResponseOf<typeof authRoutes.status>;

let startup: { key: string; data: Status; at: number } | null = null;

/** The startup session check's answer (auth-bootstrap), kept for the shell's first render. */
export function rememberStartupStatus(data: Status): void {
  const key = getApiKey();
  startup = key && data.authenticated ? { key, data, at: Date.now() } : null;
}

/**
 * The startup answer while it belongs to the stored key: the shell reads its role from it instead
 * of asking /auth/status a second time before the first page can paint. After a sign-out or a
 * sign-in as someone else the key differs and the shell asks the server.
 */
export function startupStatus(): { data: Status; at: number } | null {
  if (!startup || startup.key !== getApiKey()) return null;
  return startup;
}
