import { createTheme, MantineProvider } from '@mantine/core';
import { QueryClientProvider } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { queryClient } from '../api/query-client.ts';
import { DEFAULT_THEME, themeStorageManager, toMantine } from './theme/theme-choice.ts';

const theme = createTheme({
  primaryColor: 'blue',
  defaultRadius: 'md',
  // Keyboard users always see where focus is; mouse clicks do not draw rings.
  focusRing: 'auto',
});

const colorSchemeManager = themeStorageManager();

export function AppProviders({ children }: { children: ReactNode }) {
  return (
    <MantineProvider
      theme={theme}
      colorSchemeManager={colorSchemeManager}
      defaultColorScheme={toMantine(DEFAULT_THEME)}
    >
      <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>
    </MantineProvider>
  );
}
