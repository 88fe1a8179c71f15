import { Injectable } from '@nestjs/common';
import type { Profile } from '@kora/contracts';
import { isSealed, PersonalDataVault, type Sealed } from '@kora/kernel';
import type { ProfileDocument } from '../../contracts/queries';
import type { ProfileInput } from '../../domain/validation';

/** The profile as the client sees it, personal fields opened (`@kora/contracts`). */
export type ProfileView = Profile;

/** Seals personal fields on the way into events and opens them on the way out. */
@Injectable()
export class PersonalData {
  constructor(private readonly vault: PersonalDataVault) {}

  seal(userId: string, value: string): Promise<Sealed> {
    return this.vault.seal(userId, value);
  }

  async sealOptional(userId: string, value: string | null): Promise<Sealed | null> {
    return value === null ? null : this.vault.seal(userId, value);
  }

  async open(userId: string, value: Sealed | null): Promise<string> {
    if (value === null || !isSealed(value)) return '';
    return (await this.vault.open(userId, value)) ?? '';
  }

  fingerprintEmail(email: string): string {
    return this.vault.fingerprint(email.trim().toLowerCase());
  }

  async sealProfile(userId: string, input: ProfileInput) {
    return {
      firstName: await this.seal(userId, input.firstName),
      lastName: await this.seal(userId, input.lastName),
      contactNumber: await this.sealOptional(userId, input.contactNumber),
      profileTypes: input.profileTypes,
      streetAddress: await this.sealOptional(userId, input.streetAddress),
      city: await this.sealOptional(userId, input.city),
      postalCode: await this.sealOptional(userId, input.postalCode),
      country: input.country,
    };
  }

  async view(doc: ProfileDocument): Promise<ProfileView> {
    const open = (value: Sealed | null) => this.open(doc._id, value);
    return {
      firstName: await open(doc.firstName),
      lastName: await open(doc.lastName),
      email: await open(doc.email),
      contactNumber: await open(doc.contactNumber),
      profileTypes: doc.profileTypes,
      streetAddress: await open(doc.streetAddress),
      city: await open(doc.city),
      postalCode: await open(doc.postalCode),
      country: doc.country ?? '',
      isEmailVerified: doc.isEmailVerified,
      isPhoneVerified: doc.isPhoneVerified,
    };
  }
}
