import { QueryClientProvider } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { queryClient } from '../api/query-client.ts';
import { BaseProviders } from './base-providers.tsx';

export { BaseProviders };

/** Theme and data layer together (tests render pages outside the shell with these). */
export function AppProviders({ children }: { children: ReactNode }) {
  return (
    <BaseProviders>
      <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>
    </BaseProviders>
  );
}
