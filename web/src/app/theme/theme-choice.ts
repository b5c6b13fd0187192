import type { MantineColorScheme, MantineColorSchemeManager } from '@mantine/core';

/** Spec §3/§4: stored under 'theme'; 'system' follows the operating system. */
export const THEME_STORAGE_KEY = 'theme';
export type ThemeChoice = 'light' | 'dark' | 'system';
export const DEFAULT_THEME: ThemeChoice = 'system';

export function isThemeChoice(v: unknown): v is ThemeChoice {
  return v === 'light' || v === 'dark' || v === 'system';
}

/** The toggle cycles light → dark → system → light. */
export function nextTheme(c: ThemeChoice): ThemeChoice {
  switch (c) {
    case 'light':
      return 'dark';
    case 'dark':
      return 'system';
    case 'system':
      return 'light';
  }
}

export function toMantine(c: ThemeChoice): MantineColorScheme {
  return c === 'system' ? 'auto' : c;
}

export function fromMantine(s: MantineColorScheme): ThemeChoice {
  return s === 'auto' ? 'system' : s;
}

/**
 * Mantine's colour scheme kept in localStorage under 'theme' with the spec's words
 * ('system' instead of Mantine's 'auto'); other tabs follow through the storage event.
 */
export function themeStorageManager(
  storage: () => Storage | null = () => window.localStorage,
): MantineColorSchemeManager {
  let handler: ((e: StorageEvent) => void) | null = null;
  return {
    get: (fallback) => {
      try {
        const v = storage()?.getItem(THEME_STORAGE_KEY);
        return isThemeChoice(v) ? toMantine(v) : fallback;
      } catch {
        return fallback;
      }
    },
    set: (value) => {
      try {
        storage()?.setItem(THEME_STORAGE_KEY, fromMantine(value));
      } catch {
        // Storage may be full or disabled; the choice then lasts for this page only.
      }
    },
    subscribe: (onUpdate) => {
      handler = (e) => {
        if (e.key === THEME_STORAGE_KEY && isThemeChoice(e.newValue)) onUpdate(toMantine(e.newValue));
      };
      window.addEventListener('storage', handler);
    },
    unsubscribe: () => {
      if (handler) window.removeEventListener('storage', handler);
      handler = null;
    },
    clear: () => {
      try {
        storage()?.removeItem(THEME_STORAGE_KEY);
      } catch {
        // nothing to clear
      }
    },
  };
}
