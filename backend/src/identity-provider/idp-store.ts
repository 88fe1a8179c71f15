import type { Document, ReadStore } from '@kora/kernel';
import { uuidv7 } from '@kora/kernel';
import argon2 from 'argon2';
import { createHash, randomBytes } from 'node:crypto';

/** A user of the built-in provider: the credentials side of an account (the product's account is event-sourced). */
export interface IdpUser extends Document {
  email: string;
  passwordHash: string;
  givenName: string;
  familyName: string;
  emailVerified: boolean;
  locale: 'en' | 'fr';
  createdAt: string;
  passwordChangedAt: string;
}

interface TokenDoc extends Document {
  userId: string;
  purpose: TokenPurpose;
  expiresAt: number;
  usedAt: number | null;
}

export type TokenPurpose = 'password-reset' | 'email-verification';

export const IDP_USERS = '_idp_users';
const IDP_TOKENS = '_idp_tokens';

/** Argon2id with OWASP's second recommended profile (19 MiB, 2 iterations, 1 lane). */
const ARGON2 = { type: argon2.argon2id, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;
export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 128;

export function normaliseEmail(email: string): string {
  return email.trim().toLowerCase();
}

export const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]{2,}$/;

export class EmailTakenError extends Error {}

/** Users, single-use tokens and attempt counters of the built-in provider, on the read store port. */
export class IdpStore {
  private dummyHash: Promise<string> | null = null;

  constructor(
    private readonly store: ReadStore,
    private readonly now: () => number = Date.now,
  ) {}

  async ensureIndexes(): Promise<void> {
    await this.store.ensureIndexes(IDP_USERS, [{ fields: { email: 1 }, unique: true }]);
    await this.store.ensureIndexes(IDP_TOKENS, [{ fields: { userId: 1 } }]);
  }

  private get users() {
    return this.store.collection<IdpUser>(IDP_USERS);
  }

  findById(id: string): Promise<IdpUser | null> {
    return this.users.findById(id);
  }

  findByEmail(email: string): Promise<IdpUser | null> {
    return this.users.findOne({ email: normaliseEmail(email) });
  }

  async create(input: {
    email: string;
    password: string;
    givenName: string;
    familyName: string;
    locale: 'en' | 'fr';
    emailVerified?: boolean;
  }): Promise<IdpUser> {
    const email = normaliseEmail(input.email);
    const passwordHash = await argon2.hash(input.password, ARGON2);
    const at = new Date(this.now()).toISOString();
    const user: IdpUser = {
      _id: uuidv7(),
      email,
      passwordHash,
      givenName: input.givenName.trim(),
      familyName: input.familyName.trim(),
      emailVerified: input.emailVerified ?? false,
      locale: input.locale,
      createdAt: at,
      passwordChangedAt: at,
    };
    await this.store.transaction(async (tx) => {
      if (await tx.collection<IdpUser>(IDP_USERS).findOne({ email })) throw new EmailTakenError(email);
      await tx.collection<IdpUser>(IDP_USERS).upsert(user);
    });
    return user;
  }

  /**
   * The user when the password matches. An unknown e-mail still costs one hash verification, so the answer time
   * does not tell whether an address has an account.
   */
  async verifyPassword(email: string, password: string): Promise<IdpUser | null> {
    const user = await this.findByEmail(email);
    if (!user) {
      this.dummyHash ??= argon2.hash(randomBytes(16).toString('hex'), ARGON2);
      await argon2.verify(await this.dummyHash, password).catch(() => false);
      return null;
    }
    return (await argon2.verify(user.passwordHash, password)) ? user : null;
  }

  async setPassword(userId: string, password: string): Promise<void> {
    const user = await this.findById(userId);
    if (!user) return;
    await this.users.upsert({
      ...user,
      passwordHash: await argon2.hash(password, ARGON2),
      passwordChangedAt: new Date(this.now()).toISOString(),
      emailVerified: true, // the reset link reached the mailbox
    });
  }

  async markEmailVerified(userId: string): Promise<void> {
    const user = await this.findById(userId);
    if (user && !user.emailVerified) await this.users.upsert({ ...user, emailVerified: true });
  }

  async delete(userId: string): Promise<void> {
    await this.users.deleteById(userId);
    await this.store.collection<TokenDoc>(IDP_TOKENS).deleteMany({ userId });
  }

  /** A random single-use token; only its hash is stored. */
  async issueToken(userId: string, purpose: TokenPurpose, ttlSeconds: number): Promise<string> {
    const token = randomBytes(32).toString('base64url');
    await this.store.collection<TokenDoc>(IDP_TOKENS).upsert({
      _id: hash(token),
      userId,
      purpose,
      expiresAt: this.now() + ttlSeconds * 1000,
      usedAt: null,
    });
    return token;
  }

  /** The token's user if it is valid for this purpose, unexpired and unused (without consuming it). */
  async peekToken(token: string, purpose: TokenPurpose): Promise<string | null> {
    const doc = await this.store.collection<TokenDoc>(IDP_TOKENS).findById(hash(token));
    if (!doc || doc.purpose !== purpose || doc.usedAt !== null || doc.expiresAt <= this.now()) return null;
    return doc.userId;
  }

  /** Consumes the token atomically: of two concurrent uses, only one gets the user. */
  async consumeToken(token: string, purpose: TokenPurpose): Promise<string | null> {
    return this.store.transaction(async (tx) => {
      const tokens = tx.collection<TokenDoc>(IDP_TOKENS);
      const doc = await tokens.findById(hash(token));
      if (!doc || doc.purpose !== purpose || doc.usedAt !== null || doc.expiresAt <= this.now()) return null;
      await tokens.upsert({ ...doc, usedAt: this.now() });
      return doc.userId;
    });
  }
}

function hash(token: string): string {
  return createHash('sha256').update(token).digest('base64url');
}
