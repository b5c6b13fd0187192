import { VHOST_DEFAULTS } from '@mailroom/contract/web/vhosts';
import { describe, expect, it } from 'vitest';
import { neededModules } from '../settings/apache-conf.renderer.ts';
import { renderVhost } from './vhost-file.renderer.ts';

const mode = { system: true, httpPort: 80, httpsPort: 443, hostPath: (p: string) => p };
const values = {
  ...VHOST_DEFAULTS,
  domain: 'lb.example.com',
  serverName: 'lb.example.com',
  documentRoot: '/var/www/apps/lb',
  status: 'active' as const,
};
const file = (app: Parameters<typeof renderVhost>[0]['app']) =>
  renderVhost({ id: 7, values, tls: null, app }, mode).files.find((f) => f.path.includes('sites-available'))!
    .content;

describe('an application behind its virtual host', () => {
  it('Enable Load Balancing: one balancer over every running instance, nothing proxied to one port alone', () => {
    const conf = file({
      type: 'Node.js',
      runningPort: 41001,
      releasePath: '/r/1',
      balancerPorts: [41001, 41002, 41003],
    });
    expect(conf).toContain('<Proxy "balancer://mailroom-app-7">');
    expect(conf.match(/BalancerMember http:\/\/127\.0\.0\.1:(\d+) retry=0/g)).toEqual([
      'BalancerMember http://127.0.0.1:41001 retry=0',
      'BalancerMember http://127.0.0.1:41002 retry=0',
      'BalancerMember http://127.0.0.1:41003 retry=0',
    ]);
    expect(conf).toContain('ProxyPass / balancer://mailroom-app-7/');
    expect(conf).not.toContain('ProxyPass / http://');
    // Mailroom's probe and ACME stay Apache's.
    expect(conf.indexOf('ProxyPass /.well-known/ !')).toBeLessThan(conf.indexOf('ProxyPass / balancer'));
  });

  it('without it: one ProxyPass to the running port, as before', () => {
    const conf = file({ type: 'Node.js', runningPort: 41001, releasePath: '/r/1', balancerPorts: null });
    expect(conf).toContain('ProxyPass / http://127.0.0.1:41001/ retry=0');
    expect(conf).not.toContain('balancer://');
  });

  it('the balancer modules load only when some application is balanced', () => {
    const s = {
      enableCompression: false,
      enableBrotli: false,
      enableRateLimiting: false,
      enableIPBasedRateLimit: false,
    };
    const hosts = { httpPorts: [80], httpsPorts: [], anyRateLimit: false, anyProxy: true, defaultTls: null };
    expect(neededModules(s as never, hosts as never)).not.toContain('proxy_balancer');
    expect(neededModules(s as never, { ...hosts, anyBalancer: true })).toEqual(
      expect.arrayContaining(['proxy', 'proxy_http', 'slotmem_shm', 'proxy_balancer', 'lbmethod_byrequests']),
    );
  });
});
