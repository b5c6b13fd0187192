import type { WebCapabilities } from '@mailroom/contract/web';
import { describe, expect, it } from 'vitest';
import { rateLimitModuleState } from './rate-limit-module.ts';

const caps = (installed: boolean, enabled: boolean) =>
  ({
    rateLimitModule: { name: 'security2', reason: 'shared counters' },
    modules: [
      { name: 'deflate', installed: true, enabled: true, package: 'apache2-bin', purpose: 'Gzip' },
      {
        name: 'security2',
        installed,
        enabled,
        package: 'libapache2-mod-security2',
        purpose: 'Rate limiting',
      },
    ],
  }) as unknown as WebCapabilities;

describe('rate-limit module state', () => {
  it('names the module, its package and whether it is installed and loaded', () => {
    expect(rateLimitModuleState(caps(true, true))).toBe(
      'Enforced by mod_security2 (libapache2-mod-security2): installed and loaded.',
    );
    expect(rateLimitModuleState(caps(true, false))).toBe(
      'Enforced by mod_security2 (libapache2-mod-security2): installed, not loaded yet.',
    );
    expect(rateLimitModuleState(caps(false, false))).toBe(
      'Enforced by mod_security2 (libapache2-mod-security2): not installed.',
    );
  });
});
