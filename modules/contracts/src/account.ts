/** What a user says they do (the spec's profile types); the profile takes any of them. */
export const PROFILE_TYPES = [
  'MUSIC_PRODUCER',
  'SOUND_ENGINEER',
  'PROFESSIONAL_ARTIST',
  'PODCASTER',
  'SOCIAL_INFLUENCER',
  'OTHER',
] as const;
export type ProfileType = (typeof PROFILE_TYPES)[number];

/**
 * The signed-in user's profile as the server sends it, personal fields opened: a field never given is '' (not null),
 * `country` a two-letter code of the spec's countries or ''.
 */
export interface Profile {
  firstName: string;
  lastName: string;
  email: string;
  contactNumber: string;
  profileTypes: ProfileType[];
  streetAddress: string;
  city: string;
  postalCode: string;
  country: string;
  isEmailVerified: boolean;
  isPhoneVerified: boolean;
}

/** `GET /api/user/profile`, and `PUT /api/user/profile`'s answer: the profile (as saved). */
export interface ProfileAnswer {
  success: true;
  profile: Profile;
}

/**
 * `PUT /api/user/profile`: the whole profile (a field left out or null is cleared). Names are required; `email` is
 * read-only (absent, blank or the account's own address); the phone is E.164 once spaces, dots, dashes and brackets
 * are taken out; `country` a two-letter code of the spec's countries. A refusal is a 400 with a code per field.
 */
export interface ProfileUpdate {
  firstName: string;
  lastName: string;
  email?: string | null;
  contactNumber?: string | null;
  profileTypes?: ProfileType[] | null;
  streetAddress?: string | null;
  city?: string | null;
  postalCode?: string | null;
  country?: string | null;
}
