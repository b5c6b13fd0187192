import { LoginRequest } from '@mailroom/contract/auth';
import { describe, expect, it } from 'vitest';
import { validateLogin } from './login-form-state.ts';

const cases: Array<[string, string]> = [
  ['', ''],
  ['   ', 'x'],
  ['admin', 'secret1'],
  ['admin@', 'secret1'],
  ['admin@example', 'secret1'],
  ['admin@example.com', ''],
  ['admin@example.com', '12345'],
  ['admin@example.com', '123456'],
  ['  admin@example.com  ', 'admin-password-1'],
  ['a b@example.com', 'secret12'],
  ['a@b@example.com', 'secret12'],
  [`${'a'.repeat(250)}@example.com`, 'secret12'],
  ['admin@example.com', 'x'.repeat(1025)],
];

describe('login validation', () => {
  it('gives the spec §5 messages', () => {
    expect(validateLogin({ email: '', password: '' }).errors).toEqual({
      email: 'Email is required',
      password: 'Password is required',
    });
    expect(validateLogin({ email: 'nope', password: '12345' }).errors).toEqual({
      email: 'Please enter a valid email address',
      password: 'Password must be at least 6 characters',
    });
    expect(validateLogin({ email: ' admin@example.com ', password: '123456' })).toEqual({
      errors: {},
      data: { email: 'admin@example.com', password: '123456' },
    });
  });

  it.each(cases)('agrees with the contract schema for %j / %j', (email, password) => {
    const ours = validateLogin({ email, password });
    const theirs = LoginRequest.safeParse({ email, password });
    expect(ours.data !== null).toBe(theirs.success);
    if (theirs.success) {
      expect(ours.data).toEqual(theirs.data);
    } else {
      const first: Record<string, string> = {};
      for (const i of theirs.error.issues) {
        const f = String(i.path[0]);
        first[f] ??= i.message;
      }
      expect(ours.errors).toEqual(first);
    }
  });
});
