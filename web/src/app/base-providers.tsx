import { createTheme, MantineProvider, type CSSVariablesResolver } from '@mantine/core';
import type { ReactNode } from 'react';
import { DEFAULT_THEME, themeStorageManager, toMantine } from './theme/theme-choice.ts';

const theme = createTheme({
  primaryColor: 'blue',
  // Shade 9 keeps blue text (links, the active menu item) at WCAG AA contrast on light backgrounds.
  primaryShade: { light: 9, dark: 8 },
  defaultRadius: 'md',
  // Keyboard users always see where focus is; mouse clicks do not draw rings.
  focusRing: 'auto',
  components: {
    // Plain objects, not Modal.extend(): importing Modal here would put it in /login's bundle.
    Modal: { defaultProps: { closeButtonProps: { 'aria-label': 'Close dialog' } } },
  },
});

// Mantine's default "dimmed" grey is below 4.5:1 on both schemes; so are the titles of light orange
// and yellow alerts (3.8:1 and 2.7:1 on their tinted backgrounds), darkened here to 5.4:1 and 5.2:1.
const cssVariablesResolver: CSSVariablesResolver = () => ({
  variables: {},
  light: {
    '--mantine-color-dimmed': 'var(--mantine-color-gray-7)',
    '--mantine-color-orange-light-color': '#a8400c',
    '--mantine-color-yellow-light-color': '#995500',
  },
  dark: { '--mantine-color-dimmed': 'var(--mantine-color-dark-1)' },
});

const colorSchemeManager = themeStorageManager();

/** Theme only: what /login needs. The data layer (TanStack Query) comes with the shell's chunk. */
export function BaseProviders({ children }: { children: ReactNode }) {
  return (
    <MantineProvider
      theme={theme}
      cssVariablesResolver={cssVariablesResolver}
      colorSchemeManager={colorSchemeManager}
      defaultColorScheme={toMantine(DEFAULT_THEME)}
    >
      {children}
    </MantineProvider>
  );
}
