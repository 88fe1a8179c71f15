import type { Document, ReadStore } from '@kora/kernel';
import { exportJWK, generateKeyPair, type JWK } from 'jose';
import { randomBytes } from 'node:crypto';

interface KeysDoc extends Document {
  jwks: JWK[];
  cookieKeys: string[];
  createdAt: string;
}

const KEYS = '_oidc_keys';

export interface OidcKeys {
  /** Private signing keys (RS256), newest first. */
  jwks: JWK[];
  cookieKeys: string[];
}

/**
 * The built-in provider's signing and cookie keys: generated once and kept in the read store, so every replica
 * signs and verifies with the same keys and tokens survive a restart.
 */
export async function loadOrCreateKeys(store: ReadStore): Promise<OidcKeys> {
  const existing = await store.collection<KeysDoc>(KEYS).findById('current');
  if (existing) return existing;
  const { privateKey } = await generateKeyPair('RS256', { extractable: true, modulusLength: 2048 });
  const jwk = { ...(await exportJWK(privateKey)), alg: 'RS256', use: 'sig', kid: randomBytes(8).toString('hex') };
  const fresh: KeysDoc = {
    _id: 'current',
    jwks: [jwk],
    cookieKeys: [randomBytes(32).toString('base64url')],
    createdAt: new Date().toISOString(),
  };
  return store.transaction(async (tx) => {
    const raced = await tx.collection<KeysDoc>(KEYS).findById('current');
    if (raced) return raced;
    await tx.collection<KeysDoc>(KEYS).upsert(fresh);
    return fresh;
  });
}

/** The public half of each signing key, for local token verification. */
export function publicJwks(keys: OidcKeys): JWK[] {
  return keys.jwks.map(({ kty, n, e, alg, use, kid, crv, x, y }) =>
    Object.fromEntries(Object.entries({ kty, n, e, alg, use, kid, crv, x, y }).filter(([, v]) => v !== undefined)),
  );
}
