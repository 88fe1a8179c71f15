import type { ErrorCode, FailureCode, FieldCode } from '@kora/contracts';
import type { resources } from '../locales/resources';
import type { ApiErrorBody } from './api';

/**
 * The one table from the server's error codes (`MODULE.PROBLEM`, docs/api.md) to the client's translation keys,
 * the answer's `code` and the per-field codes of a 400 `VALIDATION.FAILED` (`fields`) alike.
 * A code reads differently depending on where it is shown, so each row gives the key per place; a place that has no
 * key for a code shows its own fallback. Keys are as the place passes them to `t` (its namespace in `PLACES`).
 */
export const PLACES = {
  /** Beside the file chosen on the studio's upload card (size and format, spec §5). */
  uploadFile: 'studio',
  /** The banner above the studio's upload card. */
  uploadBanner: 'studio',
  /** A failed job's `errorCode`, on the studio's result. */
  jobFailure: 'studio',
  /** Choosing an earlier upload in the media library. */
  library: 'common',
  /** The mixing upload card's files. */
  mixingUpload: 'mixing',
  /** Creating a mix session. */
  mixingCreate: 'mixing',
  /** The payment panel's error banner. */
  payment: 'common',
  /** Spending a credit. */
  credit: 'common',
  /** Deleting the account. */
  deactivate: 'common',
  /** Beside a field of the personal information form (account settings). */
  profile: 'common',
  /** The result's e-mail panel (studio). */
  resultEmail: 'common',
} as const;

export type ErrorPlace = keyof typeof PLACES;

/** The dotted paths to the texts of a namespace's tree (`upload.errors.fileSizeMax`). */
type Leaves<Tree> = {
  [Key in keyof Tree & string]: Tree[Key] extends string ? Key : `${Key}.${Leaves<Tree[Key]>}`;
}[keyof Tree & string];
type Namespace = keyof (typeof resources)['en'] & keyof (typeof resources)['fr'];
/** A key of `namespace` that has a text in English and in French. */
type TranslatedKey<Name extends Namespace> = Leaves<(typeof resources)['en'][Name]> &
  Leaves<(typeof resources)['fr'][Name]>;
/** A key with its namespace (`payment:errors.currency`), translated in both languages. */
type QualifiedKey = { [Name in Namespace]: `${Name}:${TranslatedKey<Name>}` }[Namespace];
/** What a place may show: a key of its own namespace (`PLACES`) or a qualified one, translated in both languages. */
type PlaceKey<Place extends ErrorPlace> = TranslatedKey<(typeof PLACES)[Place]> | QualifiedKey;
/** One code's keys, per place that shows it. */
type Row = { readonly [Place in ErrorPlace]?: PlaceKey<Place> };
/**
 * What the server can send (`@kora/contracts`): an answer's code, a per-field code, a failed job's code. A code the
 * server does not send, or a key without its English or French text, fails the type check.
 */
export type ServerCode = ErrorCode | FieldCode | FailureCode;

const INVALID_CHOICE = { uploadBanner: 'upload.errors.invalidChoice' } as const;
const LIBRARY_FORMAT = 'library.media.errors.format';
const NOT_COMPLETED = { payment: 'payment:errors.notCompleted' } as const;
const engine = <Problem extends string>(problem: Problem) => ({ jobFailure: `failures.${problem}` as const });
const profile = <Problem extends string>(problem: Problem) => ({
  profile: `account.profile.errors.${problem}` as const,
});

export const ERROR_KEYS: { readonly [Code in ServerCode]?: Row } = {
  'UPLOAD.FILE_SIZE_MIN': {
    uploadFile: 'upload.errors.fileSizeMin',
    library: 'library.media.errors.fileSizeMin',
    mixingUpload: 'problems.fileSize',
  },
  'UPLOAD.FILE_SIZE_MAX': {
    uploadFile: 'upload.errors.fileSizeMax',
    library: 'library.media.errors.fileSizeMax',
    mixingUpload: 'problems.fileSize',
  },
  'UPLOAD.AUDIO_FORMAT': { uploadFile: 'upload.errors.audioFormat', library: LIBRARY_FORMAT },
  'UPLOAD.INVALID_VIDEO_FORMAT': { uploadFile: 'upload.errors.invalidVideoFormat', library: LIBRARY_FORMAT },
  'UPLOAD.NO_AUDIO_TRACK': { uploadFile: 'upload.errors.noAudioTrack', library: LIBRARY_FORMAT },
  'UPLOAD.SAMPLE_RATE': { uploadFile: 'upload.errors.sampleRate', library: LIBRARY_FORMAT },
  'UPLOAD.TOO_LONG': { uploadFile: 'upload.errors.tooLong', library: 'library.media.errors.tooLong' },
  'UPLOAD.DAMAGED_FILE': {
    uploadFile: 'upload.errors.damagedFile',
    library: 'library.media.errors.damaged',
    mixingUpload: 'problems.damagedFile',
  },
  'UPLOAD.FILE_REQUIRED': { uploadFile: 'upload.errors.fileRequired' },
  'UPLOAD.FILE_FORMAT': { mixingUpload: 'problems.fileFormat' },
  'UPLOAD.INVALID_SERVICE': INVALID_CHOICE,
  'UPLOAD.INVALID_PRESET': INVALID_CHOICE,
  'UPLOAD.INVALID_MODE': INVALID_CHOICE,
  'UPLOAD.INVALID_INTENSITY': INVALID_CHOICE,
  'UPLOAD.INVALID_TARGET': INVALID_CHOICE,
  'UPLOAD.TOO_MANY_FILES': INVALID_CHOICE,
  'UPLOAD.INVALID_REFERENCE': { uploadBanner: 'upload.errors.referenceFormat' },
  'TRACKS.ALREADY_PROCESSING': {
    uploadBanner: 'errors.alreadyProcessing',
    library: 'library.media.errors.alreadyProcessing',
  },
  'TRACKS.NOT_FOUND': { library: 'library.media.errors.notFound' },
  'STORAGE.FULL': { uploadBanner: 'errors.unavailable' },
  'MIXING.MAXIMUM_FILES': { mixingUpload: 'problems.maximumFiles' },
  'MIXING.NO_FILES': { mixingUpload: 'problems.minimumFiles' },
  'MIXING.NAME_REQUIRED': { mixingCreate: 'problems.mixNameRequired' },
  'ACCOUNT.CONFIRMATION_REQUIRED': { deactivate: 'account.security.delete.confirmError' },
  'PROFILE.FIRST_NAME_REQUIRED': profile('firstNameRequired'),
  'PROFILE.LAST_NAME_REQUIRED': profile('lastNameRequired'),
  'PROFILE.TOO_LONG': profile('tooLong'),
  'PROFILE.EMAIL_READ_ONLY': profile('emailReadOnly'),
  'PROFILE.INVALID_PHONE': profile('invalidPhone'),
  'PROFILE.INVALID_POSTAL_CODE': profile('invalidPostalCode'),
  'PROFILE.INVALID_COUNTRY': profile('invalidCountry'),
  'PROFILE.INVALID_PROFILE_TYPE': profile('invalidProfileType'),
  'EMAIL.INVALID_ADDRESS': { resultEmail: 'studio:email.invalid' },
  'EMAIL.DAILY_LIMIT': { resultEmail: 'studio:email.dailyLimit' },
  'BILLING.PAYMENT_DECLINED': { payment: 'payment:declines.other' },
  'BILLING.PAYMENT_NOT_APPROVED': NOT_COMPLETED,
  'BILLING.PAYMENT_CLOSED': NOT_COMPLETED,
  'BILLING.PROVIDER_UNAVAILABLE': { payment: 'payment:errors.providerUnavailable' },
  'BILLING.CURRENCY_NOT_SUPPORTED': { payment: 'payment:errors.currency' },
  'BILLING.PROVIDER_NOT_OFFERED': { payment: 'payment:errors.notOffered' },
  'BILLING.PAYMENT_UNDER_REVIEW': { payment: 'payment:errors.underReview' },
  'BILLING.ALREADY_UNLOCKED': { payment: 'payment:errors.alreadyUnlocked' },
  'BILLING.INSUFFICIENT_CREDITS': { credit: 'payment:errors.insufficientCredits' },
  'ENGINE.DECODE_FAILED': engine('DECODE_FAILED'),
  'ENGINE.TRUNCATED_INPUT': engine('TRUNCATED_INPUT'),
  'ENGINE.NO_AUDIO_TRACK': engine('NO_AUDIO_TRACK'),
  'ENGINE.EMPTY_INPUT': engine('EMPTY_INPUT'),
  'ENGINE.TOO_SHORT': engine('TOO_SHORT'),
  'ENGINE.INVALID_OPTIONS': engine('INVALID_OPTIONS'),
  'ENGINE.WORKER_FAILED': engine('WORKER_FAILED'),
  'ENGINE.UNSUPPORTED_FORMAT': engine('UNSUPPORTED_FORMAT'),
  'ENGINE.FORMAT_MISMATCH': engine('FORMAT_MISMATCH'),
};

/** The key `place` shows for a server code, if the table has one. */
export function errorKeyFor(place: ErrorPlace, code: string | null | undefined): string | undefined {
  return code && Object.hasOwn(ERROR_KEYS, code) ? ERROR_KEYS[code as ServerCode]![place] : undefined;
}

/** The code an error answer gives for one field: its entry in `fields`, else the answer's own code. */
export function fieldCode(body: ApiErrorBody | null | undefined, field: string): string | undefined {
  const fields = body?.fields;
  return (fields && Object.hasOwn(fields, field) ? fields[field] : undefined) ?? body?.code;
}

/** The key `place` shows for a server code, else the place's fallback. */
export function errorKey(place: ErrorPlace, code: string | null | undefined, fallback: string): string {
  return errorKeyFor(place, code) ?? fallback;
}
