import { describe, expect, it } from 'vitest';
import {
  isGitRef,
  isGitRepository,
  parseEnvText,
  splitCommand,
  WebApplicationInput,
} from './applications.ts';

describe('web application fields', () => {
  it.each([
    ['main', true],
    ['feature/login-2', true],
    ['v1.2.3', true],
    ['0123456789abcdef0123456789abcdef01234567', true],
    ['main;touch /tmp/x', false],
    ['--upload-pack=x', false],
    ['a..b', false],
    ['a//b', false],
    ['x.lock', false],
    ['refs/heads/', false],
    ['$(id)', false],
    ['', false],
  ])('ref %j allowed: %s', (ref, ok) => expect(isGitRef(ref)).toBe(ok));

  it.each([
    ['https://github.com/acme/shop.git', true],
    ['git@github.com:acme/shop.git', true],
    ['ssh://git@host:22/srv/shop.git', true],
    ['/srv/git/shop.git', true],
    ['-uhack', false],
    ['ext::sh -c id', false],
    ['https://host/a b', false],
    ['/srv/../etc', false],
  ])('repository %j allowed: %s', (repo, ok) => expect(isGitRepository(repo)).toBe(ok));

  it('commands become argument lists; shell characters are refused, never interpreted', () => {
    expect(splitCommand('npm run build')).toEqual(['npm', 'run', 'build']);
    expect(splitCommand(`node "my app.js" --title 'a b'`)).toEqual(['node', 'my app.js', '--title', 'a b']);
    for (const bad of ['a; b', 'a && b', 'a | b', 'echo $HOME', 'a `b`', 'a > f', '"open'])
      expect(splitCommand(bad)).toBeNull();
  });

  it('env text: comma-separated key=value', () => {
    expect(parseEnvText('A=1, B = two ,C')).toEqual({ A: '1', B: 'two', C: '' });
  });

  it('spec §9 defaults fill in', () => {
    const v = WebApplicationInput.parse({
      name: 'shop',
      domain: 'shop.example.com',
      version: '1',
      deploymentPath: '/var/www/shop',
      startCommand: 'node server.js',
    });
    expect(v).toMatchObject({
      branch: 'main',
      environment: 'production',
      port: 3000,
      healthCheckPath: '/health',
    });
  });

  it('a Start Command is required for the process types (Node.js, Python), not for the file types', () => {
    const base = { name: 'shop', domain: 'shop.example.com', version: '1', deploymentPath: '/var/www/shop' };
    for (const type of ['Node.js', 'Python'] as const) {
      const r = WebApplicationInput.safeParse({ ...base, type });
      expect(r.success).toBe(false);
      expect(r.error?.issues[0]).toMatchObject({
        path: ['startCommand'],
        message: 'Start Command is required for a Node.js or Python application',
      });
    }
    for (const type of ['Static', 'Angular'] as const)
      expect(WebApplicationInput.safeParse({ ...base, type }).success).toBe(true);
  });
});
