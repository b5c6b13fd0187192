import { describe, expect, it } from 'vitest';
import { nameServerCaption } from './dns-stat-cards.tsx';

const ns = (state: 'running' | 'stopped' | 'failed' | 'not-installed' | 'unmanaged', detail = 'why') => ({
  name: 'named' as const,
  state,
  pid: null,
  since: null,
  detail,
});

describe('DNS Server caption', () => {
  it("keeps the spec's words when named answers or Mailroom's own named is down", () => {
    expect(nameServerCaption({ serverStatus: 'online', nameServer: ns('running') })).toBe(
      'All systems operational',
    );
    expect(nameServerCaption({ serverStatus: 'offline', nameServer: ns('failed') })).toBe(
      'Service disruption',
    );
    expect(nameServerCaption({ serverStatus: 'offline', nameServer: ns('stopped') })).toBe(
      'Service disruption',
    );
  });

  it('says plainly when Mailroom does not run named, and why', () => {
    expect(
      nameServerCaption({ serverStatus: 'offline', nameServer: ns('unmanaged', 'MAILROOM_RUN_DAEMONS=0.') }),
    ).toBe('Not run by Mailroom: MAILROOM_RUN_DAEMONS=0.');
    expect(
      nameServerCaption({ serverStatus: 'offline', nameServer: ns('not-installed', 'named is missing.') }),
    ).toBe('Not installed: named is missing.');
  });
});
