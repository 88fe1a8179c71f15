import type { Profile } from '../api/account';

/** The profile form's fields: the profile's, each as the server sends it ('' where none was given). */
export type ProfileForm = Omit<Profile, 'isEmailVerified' | 'isPhoneVerified'>;

/** Optional +, a first digit 1 to 9, then 1 to 14 more digits; spaces, dots, dashes and brackets are ignored. */
export const PHONE = /^\+?[1-9]\d{1,14}$/;

export function normalisePhone(value: string): string {
  return value.replace(/[\s().-]/g, '');
}

export type ProfileErrors = Partial<Record<keyof ProfileForm, string>>;

/** The spec's profile rules (§5); each error is a translation key, the same the server sends. */
export function validateProfile(profile: ProfileForm): ProfileErrors {
  const errors: ProfileErrors = {};
  if (!profile.firstName.trim()) errors.firstName = 'account.profile.errors.firstNameRequired';
  if (!profile.lastName.trim()) errors.lastName = 'account.profile.errors.lastNameRequired';
  if (!profile.email.trim()) errors.email = 'account.profile.errors.emailRequired';
  const phone = normalisePhone(profile.contactNumber);
  if (phone !== '' && !PHONE.test(phone)) errors.contactNumber = 'account.profile.errors.invalidPhone';
  return errors;
}

/** The confirmation must be exactly DELETE (spec §5). */
export const DELETE_CONFIRMATION = 'DELETE';
export const isDeleteConfirmed = (text: string): boolean => text === DELETE_CONFIRMATION;
