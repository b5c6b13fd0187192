import { createHash, generateKeyPairSync, randomBytes, sign, type KeyObject } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, dialects, startTestApp, type TestContext } from '../harness.ts';

/** Just enough CBOR for WebAuthn: maps, byte and text strings, small integers. */
function cbor(v: unknown): Buffer {
  const head = (major: number, n: number): Buffer => {
    if (n < 24) return Buffer.from([(major << 5) | n]);
    if (n < 256) return Buffer.from([(major << 5) | 24, n]);
    const b = Buffer.alloc(3);
    b[0] = (major << 5) | 25;
    b.writeUInt16BE(n, 1);
    return b;
  };
  if (typeof v === 'number') return v >= 0 ? head(0, v) : head(1, -1 - v);
  if (typeof v === 'string') return Buffer.concat([head(3, Buffer.byteLength(v)), Buffer.from(v)]);
  if (Buffer.isBuffer(v)) return Buffer.concat([head(2, v.length), v]);
  if (v instanceof Map) {
    const parts = [head(5, v.size)];
    for (const [k, val] of v) parts.push(cbor(k), cbor(val));
    return Buffer.concat(parts);
  }
  throw new Error('unsupported');
}

const b64u = (b: Buffer) => b.toString('base64url');
const ORIGIN = 'http://localhost:8080';

/** A software security key: one P-256 credential, 'none' attestation, a signature counter. */
class SoftAuthenticator {
  readonly id = randomBytes(16);
  private readonly key: { privateKey: KeyObject; publicKey: KeyObject } = generateKeyPairSync('ec', {
    namedCurve: 'P-256',
  });
  counter = 0;

  private cose(): Buffer {
    const jwk = this.key.publicKey.export({ format: 'jwk' });
    return cbor(
      new Map<number, unknown>([
        [1, 2],
        [3, -7],
        [-1, 1],
        [-2, Buffer.from(jwk.x!, 'base64url')],
        [-3, Buffer.from(jwk.y!, 'base64url')],
      ]),
    );
  }

  private authData(rpId: string, flags: number, attested: boolean): Buffer {
    const count = Buffer.alloc(4);
    count.writeUInt32BE(this.counter);
    const parts: Buffer[] = [createHash('sha256').update(rpId).digest(), Buffer.from([flags]), count];
    if (attested) {
      const len = Buffer.alloc(2);
      len.writeUInt16BE(this.id.length);
      parts.push(Buffer.alloc(16), len, this.id, this.cose());
    }
    return Buffer.concat(parts);
  }

  register(options: { challenge: string; rp: { id: string } }) {
    const clientData = Buffer.from(
      JSON.stringify({
        type: 'webauthn.create',
        challenge: options.challenge,
        origin: ORIGIN,
        crossOrigin: false,
      }),
    );
    const attestation = cbor(
      new Map<string, unknown>([
        ['fmt', 'none'],
        ['attStmt', new Map()],
        ['authData', this.authData(options.rp.id, 0x45, true)],
      ]),
    );
    return {
      id: b64u(this.id),
      rawId: b64u(this.id),
      type: 'public-key',
      response: {
        clientDataJSON: b64u(clientData),
        attestationObject: b64u(attestation),
        transports: ['usb'],
      },
      clientExtensionResults: {},
      authenticatorAttachment: 'cross-platform',
    };
  }

  assert(options: { challenge: string; rpId: string }, opts: { origin?: string; tamper?: boolean } = {}) {
    this.counter += 1;
    const clientData = Buffer.from(
      JSON.stringify({ type: 'webauthn.get', challenge: options.challenge, origin: opts.origin ?? ORIGIN }),
    );
    const authData = this.authData(options.rpId, 0x05, false);
    const signed = Buffer.concat([authData, createHash('sha256').update(clientData).digest()]);
    const signature = sign(
      'sha256',
      opts.tamper ? Buffer.concat([signed, Buffer.from([0])]) : signed,
      this.key.privateKey,
    );
    return {
      id: b64u(this.id),
      rawId: b64u(this.id),
      type: 'public-key',
      response: {
        clientDataJSON: b64u(clientData),
        authenticatorData: b64u(authData),
        signature: b64u(signature),
      },
      clientExtensionResults: {},
    };
  }
}

describe.each(dialects())('passkeys and security keys on %s', (dialect) => {
  let t: TestContext;
  const key = new SoftAuthenticator();
  beforeAll(async () => {
    t = await startTestApp(dialect);
  });
  afterAll(async () => t.close());

  const challenge = async () => {
    const res = await t.app.inject({ method: 'POST', url: '/auth/login', payload: ADMIN });
    expect(res.json()).toMatchObject({ mfa_required: true, methods: ['webauthn'] });
    const ch: string = res.json().challenge;
    const opts = await t.app.inject({
      method: 'POST',
      url: '/auth/mfa/webauthn-options',
      payload: { challenge: ch },
    });
    expect(opts.statusCode).toBe(200);
    return {
      ch,
      options: opts.json<{ challenge: string; rpId: string; allowCredentials: { id: string }[] }>(),
    };
  };
  const verify = (ch: string, credential: object) =>
    t.app.inject({
      method: 'POST',
      url: '/auth/mfa/verify',
      payload: { challenge: ch, method: 'webauthn', credential },
    });

  it('registers a security key with none attestation (device type Hardware Token)', async () => {
    const opts = await t.call({
      method: 'POST',
      url: '/api/account/mfa/webauthn/options',
      payload: { deviceName: 'YubiKey' },
    });
    expect(opts.statusCode).toBe(200);
    const options = opts.json();
    expect(options.rp).toMatchObject({ id: 'localhost', name: 'Mailroom' });
    expect(options.attestation).toBe('none');
    // An answer to another challenge is refused.
    const forged = key.register({ challenge: b64u(randomBytes(32)), rp: options.rp });
    const bad = await t.call({
      method: 'POST',
      url: '/api/account/mfa/webauthn',
      payload: { deviceName: 'YubiKey', credential: forged },
    });
    expect(bad.statusCode).toBe(400);
    const again = (
      await t.call({
        method: 'POST',
        url: '/api/account/mfa/webauthn/options',
        payload: { deviceName: 'YubiKey' },
      })
    ).json();
    const res = await t.call({
      method: 'POST',
      url: '/api/account/mfa/webauthn',
      payload: { deviceName: 'YubiKey', credential: key.register(again) },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      deviceName: 'YubiKey',
      deviceType: 'Hardware Token',
      status: 'active',
      isPrimary: true,
    });
  });

  it('signs in with an assertion; a replayed, tampered or foreign-origin one is refused', async () => {
    let { ch, options } = await challenge();
    expect(options.allowCredentials.map((c) => c.id)).toEqual([b64u(key.id)]);
    const good = key.assert(options);
    let res = await verify(ch, good);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ success: true, email: ADMIN.email });
    ({ ch, options } = await challenge());
    // The same assertion again: its challenge is not this sign-in's and its counter did not move.
    expect((await verify(ch, good)).statusCode).toBe(401);
    expect((await verify(ch, key.assert(options, { tamper: true }))).statusCode).toBe(401);
    expect((await verify(ch, key.assert(options, { origin: 'http://evil.example' }))).statusCode).toBe(401);
    res = await verify(ch, key.assert(options));
    expect(res.statusCode).toBe(200);
    const row = await t.deps.database.db
      .selectFrom('mfa_devices')
      .select(['sign_count', 'last_used'])
      .executeTakeFirstOrThrow();
    expect(Number(row.sign_count)).toBe(key.counter);
    expect(row.last_used).toBeTruthy();
  });

  it('removes the key: every session ends and the password alone signs in again', async () => {
    const devices = (await t.call({ method: 'GET', url: '/api/mfa/devices' })).json();
    expect(devices[0]).toMatchObject({ deviceType: 'Hardware Token', userEmail: ADMIN.email });
    const res = await t.call({ method: 'DELETE', url: `/api/account/mfa/devices/${devices[0].id}` });
    expect(res.statusCode).toBe(200);
    expect((await t.call({ method: 'GET', url: '/api/account/mfa' })).statusCode).toBe(401);
    const login = await t.app.inject({ method: 'POST', url: '/auth/login', payload: ADMIN });
    expect(login.json()).toMatchObject({ success: true });
  });
});
