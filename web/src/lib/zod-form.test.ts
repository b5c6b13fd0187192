import { CreateAliasRequest, MailboxForm, MailSettings, defaultMailSettings } from '@mailroom/contract/mail';
import { describe, expect, it } from 'vitest';
import { zodValidate } from './zod-form.ts';

describe('zodValidate', () => {
  it('answers the spec messages per field', () => {
    const v = zodValidate(MailboxForm);
    expect(v({ email: '', password: 'short', quota: '' })).toEqual({
      email: 'Email is required',
      password: 'Password must be at least 8 characters',
    });
    expect(v({ email: 'not-an-email', password: 'long enough', quota: 5 })).toEqual({
      email: 'Please enter a valid email address',
    });
    expect(v({ email: 'a@example.com', password: 'long enough', quota: '' })).toEqual({});
  });
  it('uses the alias labels', () => {
    expect(zodValidate(CreateAliasRequest)({ source: '', destination: 'x' })).toEqual({
      source: 'Source Email is required',
      destination: 'Please enter a valid email address',
    });
  });
  it('names nested fields with dots and keeps the first message', () => {
    const bad = {
      ...defaultMailSettings('mail.example.com', 'example.com'),
      maxRecipients: 0,
      mxRecords: [{ priority: 10, host: '' }],
    };
    const errors = zodValidate(MailSettings)(bad);
    expect(errors['maxRecipients']).toBe('Max Recipients must be at least 1');
    expect(errors['mxRecords.0.host']).toBe('MX Host is required');
    expect(zodValidate(MailSettings)({ ...bad, maxRecipients: 5, mxRecords: [] })).toEqual({
      mxRecords: 'At least one MX record is required',
    });
  });
});
