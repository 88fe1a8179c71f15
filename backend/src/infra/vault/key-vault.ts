import { type Document, PersonalDataVault, type ReadStore, type Sealed } from '@kora/kernel';
import { createCipheriv, createDecipheriv, createHmac, hkdfSync, randomBytes } from 'node:crypto';

interface AccountKeyDoc extends Document {
  /** The account's data key, encrypted with the master key (AES-256-GCM, AAD = the account id). */
  wrapped: string;
  createdAt: string;
}

export const ACCOUNT_KEYS = '_account_keys';
const IV = 12;
const TAG = 16;
const CACHE_LIMIT = 10_000;

function encrypt(key: Buffer, plaintext: Buffer, aad: string): Buffer {
  const iv = randomBytes(IV);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(Buffer.from(aad, 'utf8'));
  const body = Buffer.concat([cipher.update(plaintext), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), body]);
}

function decrypt(key: Buffer, sealed: Buffer, aad: string): Buffer | null {
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, sealed.subarray(0, IV));
    decipher.setAAD(Buffer.from(aad, 'utf8'));
    decipher.setAuthTag(sealed.subarray(IV, IV + TAG));
    return Buffer.concat([decipher.update(sealed.subarray(IV + TAG)), decipher.final()]);
  } catch {
    return null;
  }
}

/**
 * Per-account data keys (AES-256-GCM), each wrapped with the master key and stored in the read store beside, never
 * inside, the event log. A sealed value is bound to its account (the account id is the additional authenticated
 * data), so it cannot be opened under another account's key.
 */
export class KeyVault extends PersonalDataVault {
  private readonly wrapKey: Buffer;
  private readonly fingerprintKey: Buffer;
  private readonly cache = new Map<string, Buffer>();
  private readonly creating = new Map<string, Promise<Buffer>>();

  constructor(
    private readonly store: ReadStore,
    masterKey: Buffer,
  ) {
    super();
    if (masterKey.length !== 32) throw new Error('The master key must be 32 bytes');
    this.wrapKey = Buffer.from(hkdfSync('sha256', masterKey, Buffer.alloc(0), 'kora/account-key-wrap', 32));
    this.fingerprintKey = Buffer.from(hkdfSync('sha256', masterKey, Buffer.alloc(0), 'kora/fingerprint', 32));
  }

  async seal(userId: string, plaintext: string): Promise<Sealed> {
    const key = await this.keyFor(userId, true);
    return `sealed:v1:${encrypt(key!, Buffer.from(plaintext, 'utf8'), userId).toString('base64url')}`;
  }

  async open(userId: string, sealed: Sealed): Promise<string | null> {
    const key = await this.keyFor(userId, false);
    if (!key) return null;
    const plaintext = decrypt(key, Buffer.from(sealed.slice('sealed:v1:'.length), 'base64url'), userId);
    return plaintext ? plaintext.toString('utf8') : null;
  }

  async forget(userId: string): Promise<void> {
    this.cache.delete(userId);
    await this.store.collection(ACCOUNT_KEYS).deleteById(userId);
  }

  fingerprint(value: string): string {
    return createHmac('sha256', this.fingerprintKey).update(value, 'utf8').digest('base64url');
  }

  private async keyFor(userId: string, create: boolean): Promise<Buffer | null> {
    const cached = this.cache.get(userId);
    if (cached) return cached;
    const pending = this.creating.get(userId);
    if (pending) return pending;
    const stored = await this.store.collection<AccountKeyDoc>(ACCOUNT_KEYS).findById(userId);
    if (stored) return this.remember(userId, this.unwrap(userId, stored));
    if (!create) return null;
    const creation = this.create(userId).finally(() => this.creating.delete(userId));
    this.creating.set(userId, creation);
    return creation;
  }

  private async create(userId: string): Promise<Buffer> {
    const key = await this.store.transaction(async (tx) => {
      const keys = tx.collection<AccountKeyDoc>(ACCOUNT_KEYS);
      const existing = await keys.findById(userId); // another process may have created it meanwhile
      if (existing) return this.unwrap(userId, existing);
      const fresh = randomBytes(32);
      await keys.upsert({
        _id: userId,
        wrapped: encrypt(this.wrapKey, fresh, userId).toString('base64'),
        createdAt: new Date().toISOString(),
      });
      return fresh;
    });
    return this.remember(userId, key);
  }

  private unwrap(userId: string, doc: AccountKeyDoc): Buffer {
    const key = decrypt(this.wrapKey, Buffer.from(doc.wrapped, 'base64'), userId);
    if (!key) throw new Error(`The data key of account ${userId} cannot be unwrapped: wrong master key?`);
    return key;
  }

  private remember(userId: string, key: Buffer): Buffer {
    if (this.cache.size >= CACHE_LIMIT) this.cache.delete(this.cache.keys().next().value!);
    this.cache.set(userId, key);
    return key;
  }
}
