import { useEffect, useRef } from 'react';
import { createShortcutMatcher, type Shortcut } from '../shortcuts/shortcuts.ts';

/** Listens on the window and hands every recognised shortcut to `onShortcut`. */
export function useKeyboardShortcuts(onShortcut: (s: Shortcut, e: KeyboardEvent) => void): void {
  const handler = useRef(onShortcut);
  useEffect(() => {
    handler.current = onShortcut;
  });

  useEffect(() => {
    const matcher = createShortcutMatcher();
    const onKey = (e: KeyboardEvent) => {
      if (e.defaultPrevented || e.isComposing) return;
      const s = matcher.match(e, performance.now());
      if (!s) return;
      // Esc also closes Mantine's own dialogs; leave the event alone for them.
      if (s.id !== 'close') e.preventDefault();
      handler.current(s, e);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);
}
