import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SignJWT, UnsecuredJWT, exportJWK, generateKeyPair, type CryptoKey, type JWK } from 'jose';
import { authConfigSchema } from '../../../src/config/security-schema.ts';
import { bearerToken, createAuthenticator, hashApiKey, type Authenticator } from '../../../src/security/authenticator.ts';
import { WsTicketStore } from '../../../src/security/ws-tickets.ts';
import { RtError } from '../../../src/errors/registry.ts';

const SECRET = 'an-hs256-secret-that-is-at-least-32-chars';

async function rejectsWith(p: Promise<unknown>, code: string, message?: RegExp): Promise<void> {
  await assert.rejects(p, (err: unknown) => {
    assert.ok(err instanceof RtError, `expected an RtError, got ${String(err)}`);
    assert.equal(err.code, code, err.message);
    if (message !== undefined) assert.match(err.message, message);
    return true;
  });
}

describe('createAuthenticator', () => {
  let dir: string;
  let rsa: { privateKey: CryptoKey; publicKey: CryptoKey };
  let ec: { privateKey: CryptoKey; publicKey: CryptoKey };
  let other: { privateKey: CryptoKey; publicKey: CryptoKey };
  let auth: Authenticator;
  let tickets: WsTicketStore;
  let rsaJwk: JWK;

  const sign = (
    alg: 'HS256' | 'RS256' | 'ES256',
    key: CryptoKey | Uint8Array,
    claims: Record<string, unknown>,
    opts: { kid?: string; exp?: string | number | null } = {},
  ) => {
    let jwt = new SignJWT(claims)
      .setProtectedHeader({ alg, ...(opts.kid === undefined ? {} : { kid: opts.kid }) })
      .setSubject('alice')
      .setIssuedAt();
    if (opts.exp !== null) jwt = jwt.setExpirationTime(opts.exp ?? '5m');
    return jwt.sign(key);
  };

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'rtserve-auth-'));
    rsa = await generateKeyPair('RS256', { extractable: true });
    ec = await generateKeyPair('ES256', { extractable: true });
    other = await generateKeyPair('RS256', { extractable: true });
    rsaJwk = { ...(await exportJWK(rsa.publicKey)), kid: 'rsa1', alg: 'RS256', use: 'sig' };
    const ecJwk = { ...(await exportJWK(ec.publicKey)), kid: 'ec1', alg: 'ES256', use: 'sig' };
    await writeFile(join(dir, 'jwks.json'), JSON.stringify({ keys: [rsaJwk, ecJwk] }));
    tickets = new WsTicketStore(30_000);
    const config = authConfigSchema.parse({
      enabled: true,
      apiKeys: [
        { id: 'ci', sha256: hashApiKey('key-ci'), scopes: ['infer'], models: ['simple'] },
        { id: 'ops', sha256: hashApiKey('key-ops').toUpperCase(), scopes: ['admin'] },
      ],
      jwt: { secret: SECRET, jwksFile: join(dir, 'jwks.json'), issuer: 'https://issuer.test', audience: 'rtserve' },
    });
    auth = await createAuthenticator(config, tickets);
  });
  after(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  test('API keys: the hashed key finds its principal with its scopes; unknown keys are UNAUTHENTICATED', async () => {
    const p = await auth.authenticate({ authorization: 'Bearer key-ci' });
    assert.equal(p.id, 'ci');
    assert.equal(p.kind, 'api-key');
    assert.deepEqual([...p.operations], ['infer']);
    assert.deepEqual(p.models, ['simple']);
    assert.equal(
      (await auth.authenticate({ authorization: 'bearer   key-ops ' })).id,
      'ops',
      'scheme is case-insensitive, upper-case hex digests work',
    );
    await rejectsWith(auth.authenticate({ authorization: 'Bearer key-cj' }), 'UNAUTHENTICATED', /API key is not valid/);
    await rejectsWith(auth.authenticate({}), 'UNAUTHENTICATED', /credentials are required/);
    await rejectsWith(auth.authenticate({ authorization: 'Basic a2V5LWNpOg==' }), 'UNAUTHENTICATED', /Bearer/);
  });

  test('JWT HS256, RS256 (JWKS) and ES256 (JWKS) tokens are accepted with scope and models claims', async () => {
    const claims = { iss: 'https://issuer.test', aud: 'rtserve', scope: 'infer metadata bogus', models: ['mlp', 'res*'] };
    for (const [alg, key, kid] of [
      ['HS256', new TextEncoder().encode(SECRET), undefined],
      ['RS256', rsa.privateKey, 'rsa1'],
      ['ES256', ec.privateKey, 'ec1'],
    ] as const) {
      const token = await sign(alg, key, claims, kid === undefined ? {} : { kid });
      const p = await auth.authenticate({ authorization: `Bearer ${token}` });
      assert.equal(p.id, 'jwt:alice', alg);
      assert.equal(p.kind, 'jwt');
      assert.deepEqual([...p.operations].sort(), ['infer', 'metadata'], `${alg}: unknown scopes are dropped`);
      assert.deepEqual(p.models, ['mlp', 'res*']);
      assert.ok(p.expiresAtMs !== undefined && p.expiresAtMs > Date.now());
      // a second use hits the cache and gives the same principal
      assert.equal(await auth.authenticate({ bearer: token }), p);
    }
  });

  test('JWT: wrong key, expiry, issuer, audience, missing exp, alg none and algorithm confusion are refused', async () => {
    const good = { iss: 'https://issuer.test', aud: 'rtserve', scope: 'infer' };
    await rejectsWith(
      auth.authenticate({ bearer: await sign('RS256', other.privateKey, good, { kid: 'rsa1' }) }),
      'UNAUTHENTICATED',
      /signature is invalid/,
    );
    await rejectsWith(
      auth.authenticate({ bearer: await sign('HS256', new TextEncoder().encode(`${SECRET}x`), good) }),
      'UNAUTHENTICATED',
      /signature is invalid/,
    );
    await rejectsWith(
      auth.authenticate({ bearer: await sign('RS256', rsa.privateKey, good, { kid: 'rsa1', exp: Math.floor(Date.now() / 1000) - 3600 }) }),
      'UNAUTHENTICATED',
      /expired/,
    );
    await rejectsWith(
      auth.authenticate({ bearer: await sign('RS256', rsa.privateKey, { ...good, iss: 'https://evil.test' }, { kid: 'rsa1' }) }),
      'UNAUTHENTICATED',
      /'iss'/,
    );
    await rejectsWith(
      auth.authenticate({ bearer: await sign('RS256', rsa.privateKey, { ...good, aud: 'other' }, { kid: 'rsa1' }) }),
      'UNAUTHENTICATED',
      /'aud'/,
    );
    await rejectsWith(
      auth.authenticate({ bearer: await sign('RS256', rsa.privateKey, good, { kid: 'rsa1', exp: null }) }),
      'UNAUTHENTICATED',
      /'exp'/,
    );
    const unsigned = new UnsecuredJWT(good).setSubject('alice').setExpirationTime('5m').encode();
    await rejectsWith(auth.authenticate({ bearer: unsigned }), 'UNAUTHENTICATED');
    // HS256 signed with the RSA public key's JWK "n" as the secret: must not verify against the JWKS.
    const confused = await sign('HS256', new TextEncoder().encode(String(rsaJwk.n)), good);
    await rejectsWith(auth.authenticate({ bearer: confused }), 'UNAUTHENTICATED', /signature is invalid/);
    // Garbage that looks like a JWT
    await rejectsWith(auth.authenticate({ bearer: 'eyJhbGciOiJIUzI1NiJ9.e30.AAAA' }), 'UNAUTHENTICATED');
  });

  test('tickets are single use', async () => {
    const p = await auth.authenticate({ authorization: 'Bearer key-ops' });
    const { ticket, expiresInMs } = tickets.issue(p);
    assert.ok(expiresInMs > 0 && expiresInMs <= 30_000);
    assert.equal((await auth.authenticate({ ticket })).id, 'ops');
    await rejectsWith(auth.authenticate({ ticket }), 'UNAUTHENTICATED', /already used/);
  });

  test('tickets expire', async () => {
    const short = new WsTicketStore(1);
    const p = await auth.authenticate({ authorization: 'Bearer key-ops' });
    const { ticket } = short.issue(p);
    await new Promise((r) => setTimeout(r, 5));
    assert.equal(short.redeem(ticket), undefined);
  });

  test('configuration errors name the setting', async () => {
    await rejectsWith(createAuthenticator(authConfigSchema.parse({ enabled: true, jwt: {} })), 'BAD_CONFIG', /secret or secretFile/);
    await rejectsWith(
      createAuthenticator(authConfigSchema.parse({ enabled: true, jwt: { jwksFile: join(dir, 'missing.json') } })),
      'BAD_CONFIG',
      /jwksFile/,
    );
    await writeFile(join(dir, 'short.txt'), 'short\n');
    await rejectsWith(
      createAuthenticator(authConfigSchema.parse({ enabled: true, jwt: { secretFile: join(dir, 'short.txt') } })),
      'BAD_CONFIG',
      /32 bytes/,
    );
    assert.throws(() => authConfigSchema.parse({ apiKeys: [{ id: 'x', sha256: 'abc' }] }), /64 hex digits/);
  });
});

test('bearerToken parses RFC 6750 b64token and refuses other schemes', () => {
  assert.equal(bearerToken(undefined), undefined);
  assert.equal(bearerToken('Bearer abc.DEF-_~+/=='), 'abc.DEF-_~+/==');
  assert.throws(() => bearerToken('Bearer a b'), RtError);
  assert.throws(() => bearerToken('Token abc'), RtError);
});

test('hashApiKey is the sha256 hex of the key (what `printf %s KEY | sha256sum` prints)', () => {
  assert.equal(hashApiKey('abc'), 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
});
