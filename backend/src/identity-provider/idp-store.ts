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
  /** A sign-up waiting for its address to be confirmed (purpose `sign-up`); cleared once used. */
  pending?: PendingSignUp | null;
}

/** A sign-up as the form gave it, kept until the e-mailed link proves the address (the user exists only then). */
export interface PendingSignUp {
  email: string;
  passwordHash: string;
  givenName: string;
  familyName: string;
  locale: 'en' | 'fr';
}

export type TokenPurpose = 'password-reset' | 'email-verification' | 'sign-up' | 'trust-device';

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

  /** An argon2id hash of the password (sign-up hashes before it knows whether the address is taken). */
  hashPassword(password: string): Promise<string> {
    return argon2.hash(password, ARGON2);
  }

  /**
   * Keeps a sign-up until its link is followed; answers the link's token (24 hours, once). Sign-ups never confirmed
   * (names, address, password hash) are deleted once expired, at the next sign-up.
   */
  async issueSignUpToken(pending: PendingSignUp, ttlSeconds: number): Promise<string> {
    const token = randomBytes(32).toString('base64url');
    const tokens = this.store.collection<TokenDoc>(IDP_TOKENS);
    await tokens.deleteMany({ purpose: 'sign-up', expiresAt: { $lte: this.now() } });
    await tokens.upsert({
      _id: hash(token),
      userId: '',
      purpose: 'sign-up',
      expiresAt: this.now() + ttlSeconds * 1000,
      usedAt: null,
      pending: { ...pending, email: normaliseEmail(pending.email) },
    });
    return token;
  }

  /**
   * Follows a sign-up link: creates the user, its address confirmed. `taken` when the address got an account in
   * the meantime (another link, or it had one); null when the token is not a valid sign-up token.
   */
  async completeSignUp(token: string): Promise<{ user: IdpUser } | { taken: true } | null> {
    return this.store.transaction(async (tx) => {
      const tokens = tx.collection<TokenDoc>(IDP_TOKENS);
      const doc = await tokens.findById(hash(token));
      if (!doc || doc.purpose !== 'sign-up' || !doc.pending || doc.usedAt !== null || doc.expiresAt <= this.now())
        return null;
      const { pending } = doc;
      await tokens.upsert({ ...doc, usedAt: this.now(), pending: null });
      const users = tx.collection<IdpUser>(IDP_USERS);
      if (await users.findOne({ email: pending.email })) return { taken: true as const };
      const at = new Date(this.now()).toISOString();
      const user: IdpUser = {
        _id: uuidv7(),
        email: pending.email,
        passwordHash: pending.passwordHash,
        givenName: pending.givenName,
        familyName: pending.familyName,
        emailVerified: true,
        locale: pending.locale,
        createdAt: at,
        passwordChangedAt: at,
      };
      await users.upsert(user);
      await tokens.upsert({ ...doc, userId: user._id, usedAt: this.now(), pending: null });
      return { user };
    });
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
