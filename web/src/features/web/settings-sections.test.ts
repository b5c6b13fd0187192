import { WEB_SETTINGS_DEFAULTS, WEB_SETTINGS_SECTIONS, webSettingsLabels } from '@mailroom/contract/web';
import { describe, expect, it } from 'vitest';
import { SETTINGS_CHOICES, SETTINGS_LAYOUT, SETTINGS_PARENT } from './settings-sections.ts';

describe('web server settings layout', () => {
  it('has the spec’s seven sections in order', () => {
    expect(Object.keys(SETTINGS_LAYOUT)).toEqual([...WEB_SETTINGS_SECTIONS]);
  });

  it('shows every setting of the contract exactly once', () => {
    const shown = Object.values(SETTINGS_LAYOUT).flat();
    expect(new Set(shown).size).toBe(shown.length);
    expect([...shown].sort()).toEqual(Object.keys(webSettingsLabels).sort());
    expect([...shown].sort()).toEqual(Object.keys(WEB_SETTINGS_DEFAULTS).sort());
  });

  it('offers the default of every dropdown among its choices; parents are switches', () => {
    for (const [field, choices] of Object.entries(SETTINGS_CHOICES))
      expect(choices).toContain(WEB_SETTINGS_DEFAULTS[field as keyof typeof WEB_SETTINGS_DEFAULTS]);
    for (const parent of Object.values(SETTINGS_PARENT))
      expect(typeof WEB_SETTINGS_DEFAULTS[parent]).toBe('boolean');
  });
});
