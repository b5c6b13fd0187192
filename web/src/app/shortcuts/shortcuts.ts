/** Spec §3 keyboard shortcut: key, modifier flags, description, category. */
export type ShortcutCategory = 'navigation' | 'actions' | 'search' | 'system';

export type ShortcutId =
  | 'dashboard'
  | 'mail'
  | 'dns'
  | 'ssl'
  | 'web'
  | 'mfa'
  | 'system'
  | 'refresh'
  | 'logout'
  | 'focusSearch'
  | 'openSearch'
  | 'help'
  | 'close';

export interface Shortcut {
  id: ShortcutId;
  key: string;
  ctrl: boolean;
  shift: boolean;
  alt: boolean;
  description: string;
  category: ShortcutCategory;
  /** Navigation target, for the navigation shortcuts. */
  route?: string;
  /** The second key of the "G then <key>" alternative, for combinations a browser may keep. */
  sequence?: string;
  /** Set when browsers usually act on the combination before the page sees it. */
  browserNote?: string;
}

const ctrl = (
  id: ShortcutId,
  key: string,
  description: string,
  category: ShortcutCategory,
  extra: Partial<Shortcut> = {},
): Shortcut => ({
  id,
  key,
  ctrl: true,
  shift: false,
  alt: false,
  description,
  category,
  sequence: key,
  ...extra,
});

const plain = (id: ShortcutId, key: string, description: string, category: ShortcutCategory): Shortcut => ({
  id,
  key,
  ctrl: false,
  shift: false,
  alt: false,
  description,
  category,
});

/** Spec §9. */
export const SHORTCUTS: readonly Shortcut[] = [
  ctrl('dashboard', 'h', 'Go to dashboard', 'navigation', {
    route: '/dashboard',
    browserNote: 'Opens history in some browsers',
  }),
  ctrl('mail', 'm', 'Go to mail management', 'navigation', { route: '/mail' }),
  ctrl('dns', 'd', 'Go to DNS management', 'navigation', {
    route: '/dns',
    browserNote: 'Bookmarks the page in some browsers',
  }),
  ctrl('ssl', 's', 'Go to SSL management', 'navigation', { route: '/ssl' }),
  ctrl('web', 'w', 'Go to web management', 'navigation', {
    route: '/web',
    browserNote: 'Closes the tab in most browsers',
  }),
  ctrl('mfa', 'f', 'Go to MFA management', 'navigation', { route: '/mfa' }),
  ctrl('system', 'y', 'Go to system management', 'navigation', { route: '/system/monitoring' }),
  ctrl('refresh', 'r', 'Refresh system status', 'actions', {
    browserNote: 'Reloads the page in some browsers',
  }),
  ctrl('logout', 'l', 'Sign out', 'system', { browserNote: 'Focuses the address bar in some browsers' }),
  plain('focusSearch', '/', 'Focus the search box', 'search'),
  ctrl('openSearch', 'k', 'Open global search', 'search', { sequence: undefined }),
  { ...plain('help', '?', 'Show keyboard shortcuts', 'system'), shift: true },
  plain('close', 'Escape', 'Close dialogs', 'system'),
];

/** The key that starts a two-key alternative ("G then H"). */
export const SEQUENCE_LEADER = 'g';
export const SEQUENCE_TIMEOUT_MS = 1500;

export interface KeyLike {
  key: string;
  code?: string;
  ctrlKey: boolean;
  altKey: boolean;
  shiftKey: boolean;
  metaKey: boolean;
  target?: EventTarget | null;
}

/** ARIA roles of widgets that take keys themselves (Mantine's Switch, Select, SegmentedControl…). */
const CONTROL_ROLES = new Set([
  'textbox',
  'searchbox',
  'combobox',
  'listbox',
  'option',
  'checkbox',
  'switch',
  'radio',
  'radiogroup',
  'slider',
  'spinbutton',
  'menuitemcheckbox',
  'menuitemradio',
]);

/** Input types that are buttons, not values: a shortcut there does not lose an edit. */
const BUTTON_INPUTS = new Set(['button', 'submit', 'reset', 'image']);

/**
 * Spec §5: shortcuts are ignored while typing in an input, textarea, select or editable area.
 * Every form control counts as typing (switches, checkboxes, radios, selects, sliders): with one
 * focused, the user is editing a form, and Ctrl+S there must not navigate away from the change.
 */
export function isTypingTarget(target: EventTarget | null | undefined): boolean {
  if (!target || typeof target !== 'object' || !('tagName' in target)) return false;
  const el = target as HTMLElement;
  const tag = el.tagName.toLowerCase();
  if (tag === 'textarea' || tag === 'select') return true;
  if (tag === 'input') {
    const type = ((el as HTMLInputElement).type || 'text').toLowerCase();
    return !BUTTON_INPUTS.has(type);
  }
  const role = el.getAttribute?.('role');
  if (role && CONTROL_ROLES.has(role)) return true;
  if (el.isContentEditable) return true;
  const ce = el.getAttribute?.('contenteditable');
  return ce !== null && ce !== undefined && ce !== 'false';
}

// Ctrl+letter reports other characters on non-Latin layouts; the physical key still says KeyH.
function letterOf(e: KeyLike): string {
  if (e.code && /^Key[A-Z]$/.test(e.code)) return e.code.slice(3).toLowerCase();
  return e.key.length === 1 ? e.key.toLowerCase() : e.key;
}

function matchesDirect(s: Shortcut, e: KeyLike): boolean {
  if (e.metaKey || e.altKey !== s.alt) return false;
  if (s.ctrl) return e.ctrlKey && !e.shiftKey && letterOf(e) === s.key;
  if (e.ctrlKey) return false;
  if (s.key === '?') return e.key === '?';
  if (s.key === 'Escape') return e.key === 'Escape' || e.key === 'Esc';
  return e.key === s.key && !e.shiftKey;
}

/**
 * Turns key events into shortcuts. Stateful only for the "G then <key>" alternatives: `now`
 * (milliseconds) is passed in so the rule can be tested without a clock.
 */
export function createShortcutMatcher(
  shortcuts: readonly Shortcut[] = SHORTCUTS,
  timeoutMs = SEQUENCE_TIMEOUT_MS,
) {
  let leaderAt: number | null = null;

  return {
    match(e: KeyLike, now: number): Shortcut | null {
      if (isTypingTarget(e.target)) {
        leaderAt = null;
        return null;
      }
      const direct = shortcuts.find((s) => matchesDirect(s, e));
      if (direct) {
        leaderAt = null;
        return direct;
      }
      const bare = !e.ctrlKey && !e.altKey && !e.metaKey && !e.shiftKey;
      if (bare && leaderAt !== null && now - leaderAt <= timeoutMs) {
        leaderAt = null;
        const k = e.key.toLowerCase();
        return shortcuts.find((s) => s.sequence === k) ?? null;
      }
      if (bare && e.key.toLowerCase() === SEQUENCE_LEADER) {
        leaderAt = now;
        return null;
      }
      // Lone modifier presses (Shift before '?') must not cancel a pending sequence.
      if (!['Shift', 'Control', 'Alt', 'Meta'].includes(e.key)) leaderAt = null;
      return null;
    },
    /** True between the leader key and the timeout. */
    pending(now: number): boolean {
      return leaderAt !== null && now - leaderAt <= timeoutMs;
    },
  };
}

/** 'Ctrl+H', '/', '?', 'Esc'. */
export function comboLabel(s: Shortcut): string {
  if (s.key === 'Escape') return 'Esc';
  const parts: string[] = [];
  if (s.ctrl) parts.push('Ctrl');
  if (s.alt) parts.push('Alt');
  parts.push(s.key.length === 1 && s.ctrl ? s.key.toUpperCase() : s.key);
  return parts.join('+');
}

/** 'G then H' for shortcuts with an alternative, else null. */
export function alternativeLabel(s: Shortcut): string | null {
  return s.sequence ? `${SEQUENCE_LEADER.toUpperCase()} then ${s.sequence.toUpperCase()}` : null;
}
