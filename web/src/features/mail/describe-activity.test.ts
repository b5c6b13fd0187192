import { describe, expect, it } from 'vitest';
import { describeMailActivity } from './describe-activity.ts';

describe('describeMailActivity', () => {
  it('names the mail actions the server records', () => {
    expect(describeMailActivity('mail.mailbox.create', 'success')).toBe('Mailbox created');
    expect(describeMailActivity('mail.alias.import', 'success')).toBe('Aliases imported');
    expect(describeMailActivity('mail.settings.save', 'success')).toBe('Mail settings saved');
  });
  it('marks failures and keeps unknown actions readable', () => {
    expect(describeMailActivity('mail.mailbox.remove', 'failure')).toBe('Mailbox deleted (failed)');
    expect(describeMailActivity('mail.something.new', 'success')).toBe('mail.something.new');
  });
});
