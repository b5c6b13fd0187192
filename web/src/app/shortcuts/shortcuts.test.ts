import { describe, expect, it } from 'vitest';
import {
  alternativeLabel,
  comboLabel,
  createShortcutMatcher,
  isTypingTarget,
  SHORTCUTS,
  type KeyLike,
} from './shortcuts.ts';

const key = (k: string, mods: Partial<KeyLike> = {}): KeyLike => ({
  key: k,
  code: /^[a-z]$/i.test(k) ? `Key${k.toUpperCase()}` : undefined,
  ctrlKey: false,
  altKey: false,
  shiftKey: false,
  metaKey: false,
  target: document.body,
  ...mods,
});
const ctrl = (k: string) => key(k, { ctrlKey: true });

describe('spec §9 bindings', () => {
  it.each([
    ['h', 'dashboard', '/dashboard'],
    ['m', 'mail', '/mail'],
    ['d', 'dns', '/dns'],
    ['s', 'ssl', '/ssl'],
    ['w', 'web', '/web'],
    ['f', 'mfa', '/mfa'],
    ['y', 'system', '/system/monitoring'],
  ])('Ctrl+%s → %s', (k, id, route) => {
    const s = createShortcutMatcher().match(ctrl(k), 0);
    expect(s?.id).toBe(id);
    expect(s?.route).toBe(route);
  });

  it('Ctrl+R refreshes, Ctrl+L signs out, Ctrl+K opens search', () => {
    const m = createShortcutMatcher();
    expect(m.match(ctrl('r'), 0)?.id).toBe('refresh');
    expect(m.match(ctrl('l'), 0)?.id).toBe('logout');
    expect(m.match(ctrl('k'), 0)?.id).toBe('openSearch');
  });

  it("'/' focuses search, '?' opens help, Esc closes", () => {
    const m = createShortcutMatcher();
    expect(m.match(key('/'), 0)?.id).toBe('focusSearch');
    expect(m.match(key('?', { shiftKey: true }), 0)?.id).toBe('help');
    expect(m.match(key('Escape'), 0)?.id).toBe('close');
  });

  it('needs exactly Ctrl: Shift, Alt or Meta added do not match; plain letters do not match', () => {
    const m = createShortcutMatcher();
    expect(m.match(key('r', { ctrlKey: true, shiftKey: true }), 0)).toBeNull();
    expect(m.match(key('h', { ctrlKey: true, altKey: true }), 0)).toBeNull();
    expect(m.match(key('h', { metaKey: true }), 0)).toBeNull();
    expect(m.match(key('h'), 0)).toBeNull();
    expect(m.match(ctrl('q'), 0)).toBeNull();
  });

  it('uses the physical key when the layout reports another character', () => {
    expect(createShortcutMatcher().match(key('р', { ctrlKey: true, code: 'KeyH' }), 0)?.id).toBe('dashboard');
  });
});

describe('typing', () => {
  it.each([
    ['input', () => document.createElement('input')],
    ['textarea', () => document.createElement('textarea')],
    ['select', () => document.createElement('select')],
    [
      'contenteditable',
      () => {
        const d = document.createElement('div');
        d.setAttribute('contenteditable', 'true');
        return d;
      },
    ],
  ])('ignores shortcuts while typing in %s', (_, make) => {
    const el = make();
    expect(isTypingTarget(el)).toBe(true);
    const m = createShortcutMatcher();
    expect(m.match(ctrl('h'), 0)).not.toBeNull();
    expect(m.match({ ...ctrl('h'), target: el }, 0)).toBeNull();
    expect(m.match({ ...key('/'), target: el }, 0)).toBeNull();
    expect(m.match({ ...key('?', { shiftKey: true }), target: el }, 0)).toBeNull();
  });

  it.each(['checkbox', 'radio', 'range', 'color', 'file'])(
    'a focused %s input is a form control: typing',
    (type) => {
      const el = document.createElement('input');
      el.type = type;
      expect(isTypingTarget(el)).toBe(true);
      expect(createShortcutMatcher().match({ ...ctrl('s'), target: el }, 0)).toBeNull();
    },
  );

  it.each(['switch', 'checkbox', 'radio', 'combobox', 'listbox', 'slider'])(
    'an element with role=%s is typing',
    (role) => {
      const el = document.createElement('div');
      el.setAttribute('role', role);
      expect(isTypingTarget(el)).toBe(true);
    },
  );

  it('buttons and the page itself are not typing targets', () => {
    const submit = document.createElement('input');
    submit.type = 'submit';
    expect(isTypingTarget(submit)).toBe(false);
    expect(isTypingTarget(document.createElement('button'))).toBe(false);
    expect(isTypingTarget(document.body)).toBe(false);
    expect(isTypingTarget(null)).toBe(false);
  });
});

describe('"G then <key>" alternatives', () => {
  it('G then W goes to web within the timeout', () => {
    const m = createShortcutMatcher(SHORTCUTS, 1500);
    expect(m.match(key('g'), 1000)).toBeNull();
    expect(m.pending(1000)).toBe(true);
    expect(m.match(key('w'), 2000)?.id).toBe('web');
    expect(m.pending(2000)).toBe(false);
  });

  it('expires after the timeout and is cancelled by another key', () => {
    const m = createShortcutMatcher(SHORTCUTS, 1500);
    m.match(key('g'), 0);
    expect(m.match(key('w'), 1501)).toBeNull();
    m.match(key('g'), 2000);
    m.match(key('x'), 2100);
    expect(m.match(key('w'), 2200)).toBeNull();
  });

  it('is not started while typing', () => {
    const m = createShortcutMatcher();
    m.match({ ...key('g'), target: document.createElement('input') }, 0);
    expect(m.match(key('h'), 10)).toBeNull();
  });

  it('every browser-reserved combination has an alternative', () => {
    for (const s of SHORTCUTS.filter((x) => x.browserNote))
      expect(alternativeLabel(s)).toMatch(/^G then [A-Z]$/);
    for (const id of ['dashboard', 'dns', 'web', 'refresh', 'logout']) {
      expect(SHORTCUTS.find((s) => s.id === id)?.browserNote).toBeTruthy();
    }
  });
});

describe('labels', () => {
  it('shows combinations the way the help dialog lists them', () => {
    const byId = (id: string) => SHORTCUTS.find((s) => s.id === id)!;
    expect(comboLabel(byId('web'))).toBe('Ctrl+W');
    expect(alternativeLabel(byId('web'))).toBe('G then W');
    expect(comboLabel(byId('close'))).toBe('Esc');
    expect(comboLabel(byId('help'))).toBe('?');
    expect(alternativeLabel(byId('openSearch'))).toBeNull();
  });

  it('every shortcut has a description and a spec category', () => {
    for (const s of SHORTCUTS) {
      expect(s.description).toBeTruthy();
      expect(['navigation', 'actions', 'search', 'system']).toContain(s.category);
    }
  });
});
