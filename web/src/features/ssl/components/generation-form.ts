import type { GENERATION_DEFAULTS } from '@mailroom/contract/ssl';

/** The generation form's values, its choices and its request (the page and its cards share them). */
export type GenerationValues = typeof GENERATION_DEFAULTS & {
  keySize: number | string;
  validityPeriod: number | string;
};

export const METHOD_OPTIONS = [
  { value: 'self-signed', label: 'Self-signed (for testing)' },
  { value: 'csr', label: 'CSR for an outside CA' },
  { value: 'acme', label: 'ACME (Let’s Encrypt or another CA)' },
];

export const keySizesFor = (alg: string) =>
  alg === 'RSA'
    ? ['2048', '3072', '4096']
    : alg === 'ECDSA'
      ? [
          { value: '256', label: '256 (P-256)' },
          { value: '384', label: '384 (P-384)' },
        ]
      : [{ value: '256', label: '256' }];

export const toRequest = (v: GenerationValues) => ({
  ...v,
  keySize: Number(v.keySize),
  validityPeriod: Number(v.validityPeriod),
});
