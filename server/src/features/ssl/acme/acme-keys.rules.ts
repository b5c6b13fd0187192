import * as acme from 'acme-client';

/** The certificate key an order asks for. */
export interface AcmeKeySpec {
  algorithm: 'RSA' | 'ECDSA' | 'Ed25519';
  size: number;
}

export const ACME_RSA_SIZES = [2048, 3072, 4096] as const;
export const ACME_EC_CURVES = { 256: 'P-256', 384: 'P-384' } as const;

export const ED25519_REFUSED =
  'ACME certificate authorities do not issue certificates for Ed25519 keys: the CA/Browser Forum ' +
  "Baseline Requirements (which Let's Encrypt follows) allow only RSA and ECDSA P-256/P-384 keys. " +
  'Choose RSA or ECDSA.';

/** Why this key cannot be used for ACME, or null. */
export function keyProblem(key: AcmeKeySpec): string | null {
  switch (key.algorithm) {
    case 'RSA':
      return (ACME_RSA_SIZES as readonly number[]).includes(key.size)
        ? null
        : `RSA keys for ACME are 2048, 3072 or 4096 bits, not ${key.size}`;
    case 'ECDSA':
      return key.size in ACME_EC_CURVES
        ? null
        : `ECDSA keys for ACME use P-256 or P-384 (size 256 or 384), not ${key.size}`;
    case 'Ed25519':
      return ED25519_REFUSED;
  }
}

/** The certificate's private key, PEM (PKCS#8 for ECDSA, PKCS#1 for RSA as acme-client makes them). */
export async function createCertificateKey(key: AcmeKeySpec): Promise<Buffer> {
  if (key.algorithm === 'ECDSA')
    return acme.crypto.createPrivateEcdsaKey(ACME_EC_CURVES[key.size as 256 | 384]);
  return acme.crypto.createPrivateRsaKey(key.size);
}
