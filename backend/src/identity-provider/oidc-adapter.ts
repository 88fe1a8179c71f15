import type { Document, ReadStore } from '@kora/kernel';
import type { Adapter, AdapterPayload } from 'oidc-provider';

export const OIDC_COLLECTION = '_oidc';

interface OidcDoc extends Document {
  model: string;
  payload: AdapterPayload;
  expiresAt: number | null;
  grantId: string | null;
  userCode: string | null;
  uid: string | null;
}

/**
 * oidc-provider's storage (sessions, interactions, grants, codes, refresh tokens) on the read store port, so the
 * built-in provider runs embedded and on MongoDB alike, and every API replica shares the same sessions.
 */
export class ReadStoreOidcAdapter implements Adapter {
  constructor(
    private readonly model: string,
    private readonly store: ReadStore,
    private readonly now: () => number = Date.now,
  ) {}

  private get collection() {
    return this.store.collection<OidcDoc>(OIDC_COLLECTION);
  }

  private key(id: string): string {
    return `${this.model}:${id}`;
  }

  private live(doc: OidcDoc | null): AdapterPayload | undefined {
    if (!doc) return undefined;
    if (doc.expiresAt !== null && doc.expiresAt <= this.now()) return undefined;
    return doc.payload;
  }

  async upsert(id: string, payload: AdapterPayload, expiresIn?: number): Promise<void> {
    await this.collection.upsert({
      _id: this.key(id),
      model: this.model,
      payload,
      expiresAt: expiresIn ? this.now() + expiresIn * 1000 : null,
      grantId: payload.grantId ?? null,
      userCode: payload.userCode ?? null,
      uid: payload.uid ?? null,
    });
  }

  async find(id: string): Promise<AdapterPayload | undefined> {
    return this.live(await this.collection.findById(this.key(id)));
  }

  async findByUserCode(userCode: string): Promise<AdapterPayload | undefined> {
    return this.live(await this.collection.findOne({ model: this.model, userCode }));
  }

  async findByUid(uid: string): Promise<AdapterPayload | undefined> {
    return this.live(await this.collection.findOne({ model: this.model, uid }));
  }

  async consume(id: string): Promise<void> {
    const doc = await this.collection.findById(this.key(id));
    if (doc)
      await this.collection.upsert({ ...doc, payload: { ...doc.payload, consumed: Math.floor(this.now() / 1000) } });
  }

  async destroy(id: string): Promise<void> {
    await this.collection.deleteById(this.key(id));
  }

  async revokeByGrantId(grantId: string): Promise<void> {
    await this.collection.deleteMany({ grantId });
  }
}

/** Removes expired entries (called periodically; reads already ignore them). */
export async function sweepExpired(store: ReadStore, now = Date.now()): Promise<number> {
  return store.collection(OIDC_COLLECTION).deleteMany({ expiresAt: { $lte: now } });
}
