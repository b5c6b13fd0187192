import { describe, expect, it } from 'vitest';
import { signatureMatches } from './auto-deploy.service.ts';

describe('webhook signature (X-Hub-Signature-256)', () => {
  // GitHub's documented test values ("Validating webhook deliveries").
  const secret = "It's a Secret to Everybody";
  const body = 'Hello, World!';
  const github = 'sha256=757107ea0eb2509fc211221cce984b8a37570b6d7586c22c46f4379c8b043e17';

  it("accepts GitHub's own example, with any case of the hex", () => {
    expect(signatureMatches(secret, body, github)).toBe(true);
    expect(signatureMatches(secret, body, github.toUpperCase().replace('SHA256', 'sha256'))).toBe(true);
  });

  it('refuses another body, another secret, a missing, truncated or bare-hex header', () => {
    expect(signatureMatches(secret, `${body} `, github)).toBe(false);
    expect(signatureMatches('another secret', body, github)).toBe(false);
    expect(signatureMatches(secret, body, undefined)).toBe(false);
    expect(signatureMatches(secret, body, github.slice(0, -2))).toBe(false);
    expect(signatureMatches(secret, body, github.slice('sha256='.length))).toBe(false);
  });
});
