import { QueryClient } from '@tanstack/react-query';
import { ApiError, CLIENT_ERROR_STATUS } from './client.ts';

/** Spec §9: reads are retried 3 times, 1000 ms apart. */
export const READ_RETRIES = 3;
export const RETRY_DELAY_MS = 1000;

/** A client error (4xx) or a failure inside the browser will not get better by asking again. */
export function shouldRetry(failureCount: number, error: unknown): boolean {
  if (failureCount >= READ_RETRIES) return false;
  if (error instanceof ApiError) {
    if (error.status === CLIENT_ERROR_STATUS) return false;
    if (error.status >= 400 && error.status < 500) return false;
  }
  return true;
}

export const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      retry: shouldRetry,
      retryDelay: RETRY_DELAY_MS,
      refetchOnWindowFocus: false,
      staleTime: 10_000,
    },
    mutations: { retry: false },
  },
});
