import { describe, expect, it, vi } from 'vitest';
import { fromMantine, nextTheme, THEME_STORAGE_KEY, themeStorageManager, toMantine } from './theme-choice.ts';

describe('theme choice', () => {
  it('cycles light → dark → system → light', () => {
    expect(nextTheme('light')).toBe('dark');
    expect(nextTheme('dark')).toBe('system');
    expect(nextTheme('system')).toBe('light');
  });

  it("maps 'system' to Mantine's 'auto' and back", () => {
    expect(toMantine('system')).toBe('auto');
    expect(fromMantine('auto')).toBe('system');
    expect(toMantine('dark')).toBe('dark');
  });

  it("stores the spec's words under 'theme' and reads them back", () => {
    const m = themeStorageManager();
    expect(THEME_STORAGE_KEY).toBe('theme');
    expect(m.get('auto')).toBe('auto');
    m.set('auto');
    expect(localStorage.getItem('theme')).toBe('system');
    m.set('dark');
    expect(localStorage.getItem('theme')).toBe('dark');
    expect(m.get('light')).toBe('dark');
    localStorage.setItem('theme', 'purple');
    expect(m.get('auto')).toBe('auto');
    m.clear();
    expect(localStorage.getItem('theme')).toBeNull();
  });

  it('follows changes made in another tab', () => {
    const m = themeStorageManager();
    const onUpdate = vi.fn();
    m.subscribe(onUpdate);
    window.dispatchEvent(new StorageEvent('storage', { key: 'theme', newValue: 'system' }));
    window.dispatchEvent(new StorageEvent('storage', { key: 'other', newValue: 'dark' }));
    m.unsubscribe();
    window.dispatchEvent(new StorageEvent('storage', { key: 'theme', newValue: 'dark' }));
    expect(onUpdate.mock.calls).toEqual([['auto']]);
  });
});
