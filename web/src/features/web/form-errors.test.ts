import { describe, expect, it } from 'vitest';
import { ApiError } from '../../api/client.ts';
import { apiFieldErrors, formErrorsFrom, saveProblem, savedNotLive } from './form-errors.ts';

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

  it("reads Apache's refusal mapped to a field as well as the validation list", () => {
    const refused = new ApiError({
      status: 422,
      message: 'Custom Directives line 2: Invalid command',
      details: {
        output: 'AH00526',
        field: 'customDirectives',
        line: 2,
        fields: [{ field: 'customDirectives', message: 'Custom Directives line 2: Invalid command' }],
      },
    });
    expect(apiFieldErrors(refused)).toEqual({
      customDirectives: 'Custom Directives line 2: Invalid command',
    });
    const invalid = new ApiError({
      status: 400,
      message: 'x',
      details: [{ field: 'port', message: 'Port must be at most 65535' }],
    });
    expect(apiFieldErrors(invalid)).toEqual({ port: 'Port must be at most 65535' });
    expect(apiFieldErrors(new Error('x'))).toEqual({});
    expect(savedNotLive(new ApiError({ status: 502, message: 'reload failed' }))).toBe(true);
    expect(savedNotLive(refused)).toBe(false);
  });
});
