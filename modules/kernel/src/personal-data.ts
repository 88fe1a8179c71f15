/**
 * Crypto-shredding. Personal data (names, e-mail, phone, address) is written into events encrypted with a key that
 * belongs to one account and lives outside the log. Forgetting the key erases the data from every event, replay and
 * backup at once, while the events themselves (and the amounts and ids auditors need) stay.
 */
export type Sealed = `sealed:v1:${string}`;

export function isSealed(value: unknown): value is Sealed {
  return typeof value === 'string' && value.startsWith('sealed:v1:');
}

export abstract class PersonalDataVault {
  /** Encrypts a value with the account's key, creating the key on first use. */
  abstract seal(userId: string, plaintext: string): Promise<Sealed>;
  /** The plaintext, or null once the account's key is forgotten (or the value was not sealed for this account). */
  abstract open(userId: string, sealed: Sealed): Promise<string | null>;
  /** Deletes the account's key: every value sealed with it becomes unreadable for good. */
  abstract forget(userId: string): Promise<void>;
  /** A stable keyed hash (for lookups such as "which account has this e-mail") that reveals nothing by itself. */
  abstract fingerprint(value: string): string;
}
