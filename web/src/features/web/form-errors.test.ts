import { describe, expect, it } from 'vitest';
import { ApiError } from '../../api/client.ts';
import { formErrorsFrom, saveProblem } from './form-errors.ts';

describe('server errors on the virtual host form', () => {
  it('puts a list item’s error on the text field, the first message per field, the rest aside', () => {
    const { errors, rest } = formErrorsFrom(
      {
        'serverAlias.1': 'Server Aliases format is invalid',
        'serverAlias.3': 'later message',
        'body.customDirectives': 'Line 2: Include is not allowed',
        keepFiles: 'keepFiles must be true or false',
      },
      ['serverAlias', 'customDirectives'],
    );
    expect(errors).toEqual({
      serverAlias: 'Server Aliases format is invalid',
      customDirectives: 'Line 2: Include is not allowed',
    });
    expect(rest).toEqual(['keepFiles must be true or false']);
  });

  it("keeps Apache's output of a refused check", () => {
    const err = new ApiError({
      status: 422,
      message: 'Apache refused the configuration',
      details: { output: 'AH00526: Syntax error' },
    });
    expect(saveProblem(err).output).toBe('AH00526: Syntax error');
    expect(saveProblem(new Error('x')).output).toBeNull();
  });
});
