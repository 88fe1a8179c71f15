import { randomBytes } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { ACCOUNT_KEYS, KeyVault } from '../../src/infra/vault/key-vault';
import { type EmbeddedStores, embeddedStores } from '../support/stores';

describe('KeyVault (crypto-shredding)', () => {
  let stores: EmbeddedStores;
  let vault: KeyVault;
  const master = randomBytes(32);
  beforeEach(() => {
    stores = embeddedStores();
    vault = new KeyVault(stores.reads, master);
  });
  afterEach(() => stores.close());

  it('seals and opens a value for its account, never showing the plaintext', async () => {
    const sealed = await vault.seal('u1', 'Aminata Diallo');
    expect(sealed).toMatch(/^sealed:v1:[A-Za-z0-9_-]+$/);
    expect(sealed).not.toContain('Aminata');
    expect(await vault.open('u1', sealed)).toBe('Aminata Diallo');
    expect(await vault.seal('u1', 'Aminata Diallo')).not.toBe(sealed); // a fresh IV each time
  });

  it("cannot open one account's value with another account's key", async () => {
    const sealed = await vault.seal('u1', '+221771234567');
    await vault.seal('u2', 'anything');
    expect(await vault.open('u2', sealed)).toBeNull();
  });

  it('keeps keys wrapped by the master key, and survives a restart', async () => {
    const sealed = await vault.seal('u1', 'awa@example.sn');
    const doc = await stores.reads.collection<{ _id: string; wrapped: string }>(ACCOUNT_KEYS).findById('u1');
    expect(typeof doc?.wrapped).toBe('string');
    expect(await new KeyVault(stores.reads, master).open('u1', sealed)).toBe('awa@example.sn');
    await expect(new KeyVault(stores.reads, randomBytes(32)).open('u1', sealed)).rejects.toThrow(/master key/);
  });

  it('makes every sealed value unreadable once the key is forgotten', async () => {
    const sealed = await vault.seal('u1', 'Moussa');
    await vault.forget('u1');
    expect(await vault.open('u1', sealed)).toBeNull();
    expect(await new KeyVault(stores.reads, master).open('u1', sealed)).toBeNull();
  });

  it('creates one key per account even under concurrent first use', async () => {
    const sealed = await Promise.all(Array.from({ length: 20 }, (_, i) => vault.seal('u9', `v${i}`)));
    const fresh = new KeyVault(stores.reads, master);
    for (let i = 0; i < sealed.length; i += 1) expect(await fresh.open('u9', sealed[i]!)).toBe(`v${i}`);
  });

  it('fingerprints deterministically without revealing the value', () => {
    expect(vault.fingerprint('awa@example.sn')).toBe(vault.fingerprint('awa@example.sn'));
    expect(vault.fingerprint('awa@example.sn')).not.toBe(vault.fingerprint('awa@example.com'));
    expect(new KeyVault(stores.reads, randomBytes(32)).fingerprint('awa@example.sn')).not.toBe(
      vault.fingerprint('awa@example.sn'),
    );
  });
});
