import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.ts';

function problem(env: Record<string, string>): string {
  try {
    loadConfig(env);
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);
    return (err as Error).message;
  }
  throw new Error(`expected ${JSON.stringify(env)} to be refused`);
}

describe('loadConfig', () => {
  it('applies the documented defaults', () => {
    const c = loadConfig({});
    expect(c.port).toBe(8080);
    expect(c.host).toBe('127.0.0.1');
    expect(c.dataDir).toBe(path.resolve('./data'));
    expect(c.databaseUrl).toBeUndefined();
    expect(c.sessionIdleMs).toBe(30 * 60_000);
    expect(c.sessionAbsoluteMs).toBe(12 * 3_600_000);
    expect(c.trustProxy).toBe(false);
    expect(c.hostRoot).toBe(path.join(path.resolve('./data'), 'root'));
    expect(c.reload).toBe(false);
    expect(c.logLevel).toBe('info');
  });

  it('reads every setting from the environment', () => {
    const c = loadConfig({
      PORT: '9090',
      HOST: '0.0.0.0',
      MAILROOM_DATA_DIR: '/srv/mailroom',
      DATABASE_URL: 'postgres://mailroom@db/mailroom',
      MAILROOM_SESSION_IDLE_MINUTES: '5',
      MAILROOM_SESSION_ABSOLUTE_HOURS: '2',
      MAILROOM_TRUST_PROXY: '1',
      MAILROOM_ROOT: '/',
      MAILROOM_RELOAD: 'yes',
      MAILROOM_ADMIN_EMAIL: 'boss@example.com',
      MAILROOM_ADMIN_PASSWORD: 'long-enough',
      LOG_LEVEL: 'warn',
    });
    expect(c).toMatchObject({
      port: 9090,
      host: '0.0.0.0',
      dataDir: '/srv/mailroom',
      databaseUrl: 'postgres://mailroom@db/mailroom',
      sessionIdleMs: 5 * 60_000,
      sessionAbsoluteMs: 2 * 3_600_000,
      trustProxy: true,
      hostRoot: '/',
      reload: true,
      adminEmail: 'boss@example.com',
      adminPassword: 'long-enough',
      logLevel: 'warn',
    });
  });

  it('puts the mail filter’s milter on 21332 in local mode, 11332 in system mode, or MAILROOM_MILTER_PORT', () => {
    expect(loadConfig({}).ports.milter).toBe(21332);
    expect(loadConfig({ MAILROOM_ROOT: '/' }).ports.milter).toBe(11332);
    expect(loadConfig({ MAILROOM_MILTER_PORT: '12000' }).ports.milter).toBe(12000);
    expect(problem({ MAILROOM_MILTER_PORT: '70000' })).toMatch(/MAILROOM_MILTER_PORT/);
  });

  it('runs the ACME HTTP-01 listener on 2080 locally, 80 in system mode, off with 0', () => {
    expect(loadConfig({}).acme).toEqual({ httpPort: 2080, caFile: undefined, renewalTickSeconds: 60 });
    expect(loadConfig({ MAILROOM_ROOT: '/' }).acme.httpPort).toBe(80);
    expect(loadConfig({ MAILROOM_ACME_HTTP_PORT: '0' }).acme.httpPort).toBeNull();
    expect(loadConfig({ MAILROOM_ACME_HTTP_PORT: '8402' }).acme.httpPort).toBe(8402);
    expect(loadConfig({ MAILROOM_ACME_CA_FILE: 'ca.pem' }).acme.caFile).toMatch(/^\/.*\/ca\.pem$/);
    expect(problem({ MAILROOM_ACME_HTTP_PORT: 'eighty' })).toMatch(/MAILROOM_ACME_HTTP_PORT/);
  });

  it('treats empty values as unset', () => {
    expect(loadConfig({ PORT: '', MAILROOM_TRUST_PROXY: '' })).toMatchObject({
      port: 8080,
      trustProxy: false,
    });
  });

  it('counts a job dead after MAILROOM_JOB_STALE_SECONDS without a heartbeat (30 s; at least 5)', () => {
    expect(loadConfig({}).jobStaleMs).toBe(30_000);
    expect(loadConfig({ MAILROOM_JOB_STALE_SECONDS: '5' }).jobStaleMs).toBe(5_000);
    // Below the 2 s heartbeat's margin a live job would be taken from its process.
    expect(problem({ MAILROOM_JOB_STALE_SECONDS: '4' })).toMatch(
      /MAILROOM_JOB_STALE_SECONDS: must be a whole number of seconds (at least 5|from 5 to 3600)/,
    );
  });

  it('names PORT when it is not a port number', () => {
    for (const bad of ['abc', '80.5', '-1', '65536', ' ', '8080abc']) {
      const msg = problem({ PORT: bad });
      expect(msg).toContain('Invalid environment settings');
      expect(msg).toMatch(/PORT: must be a whole number from 0 to 65535/);
    }
  });

  it('names each bad setting, all at once', () => {
    const msg = problem({
      DATABASE_URL: 'mysql://x',
      MAILROOM_SESSION_IDLE_MINUTES: '0',
      MAILROOM_SESSION_ABSOLUTE_HOURS: 'soon',
      MAILROOM_TRUST_PROXY: 'maybe',
      MAILROOM_ADMIN_EMAIL: 'not-an-email',
      MAILROOM_ADMIN_PASSWORD: 'short',
      LOG_LEVEL: 'loud',
    });
    expect(msg).toContain('DATABASE_URL: must start with postgres://, postgresql:// or sqlite:');
    expect(msg).toContain('MAILROOM_SESSION_IDLE_MINUTES: must be a whole number of minutes at least 1');
    expect(msg).toContain('MAILROOM_SESSION_ABSOLUTE_HOURS: must be a whole number of hours at least 1');
    expect(msg).toContain('MAILROOM_TRUST_PROXY: must be 1/0, true/false or yes/no');
    expect(msg).toContain('MAILROOM_ADMIN_EMAIL: must be a valid email address');
    expect(msg).toContain('MAILROOM_ADMIN_PASSWORD: must be at least 8 characters');
    expect(msg).toContain('LOG_LEVEL: must be one of fatal, error, warn, info, debug, trace, silent');
  });

  it('accepts sqlite: and postgresql:// database URLs', () => {
    expect(loadConfig({ DATABASE_URL: 'sqlite:/tmp/x.db' }).databaseUrl).toBe('sqlite:/tmp/x.db');
    expect(loadConfig({ DATABASE_URL: 'postgresql://u@h/d' }).databaseUrl).toBe('postgresql://u@h/d');
  });
});
