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
/**
 * The places whose screen puts the namespace before the key itself (`t(\`studio:${key}\`)`): a qualified key would not
 * resolve there.
 */
type Prefixed = 'uploadFile' | 'uploadBanner' | 'jobFailure';
/**
 * What a place may show: a key of its own namespace (`PLACES`), or a qualified one where the screen does not prefix,
 * translated in both languages.
 */
type PlaceKey<Place extends ErrorPlace> =
  TranslatedKey<(typeof PLACES)[Place]> | (Place extends Prefixed ? never : QualifiedKey);
/** One code's keys, per place that shows it. */
type Row = { readonly [Place in ErrorPlace]?: PlaceKey<Place> };
/**
 * What the server can send (`@kora/contracts`): an answer's code, a per-field code, a failed job's code. Each has a row
 * in `ERROR_KEYS` or is listed in `UNTRANSLATED`: a code the server does not send, a code that is in neither (or in
 * both), or a key without its English or French text, fails the type check.
 */
export type ServerCode = ErrorCode | FieldCode | FailureCode;

/**
 * The codes no place translates, by why: a screen acts on them itself, a place's own fallback says more, or they never
 * reach a screen that reads this table.
 */
export const UNTRANSLATED = {
  /**
   * Per-field codes no screen reads: the client only sends valid values there, and the screen shows its own fallback
   * for any refusal (the preferences toast, the mix's and the payment's generic failure, the e-mail panel's "failed",
   * the plans' "could not cancel" toast).
   */
  fields: [
    'PREFERENCES.INVALID_LANGUAGE',
    'PREFERENCES.INVALID_CURRENCY',
    'PREFERENCES.INVALID_NOTIFICATION_SETTINGS',
    'AUTH.INVALID_EMAIL',
    'MIXING.INVALID_SETTINGS',
    'MIXING.INVALID_STYLE',
    'MIXING.INVALID_SAMPLE_RATE',
    'MIXING.INVALID_INSTRUMENT_GROUP',
    'MIXING.INVALID_PRESENCE_SETTING',
    'MIXING.INVALID_PAN_PREFERENCE',
    'MIXING.INVALID_REVERB_PREFERENCE',
    'EMAIL.TRACK_REQUIRED',
    'NOTIFICATIONS.TRACK_ID_REQUIRED',
    'NOTIFICATIONS.INVALID_TYPE',
    'BILLING.INVALID_PROVIDER',
    'BILLING.INVALID_CURRENCY',
    'BILLING.INVALID_PAYMENT_TYPE',
    'BILLING.INVALID_BILLING_CYCLE',
    'BILLING.TRACK_REQUIRED',
    'BILLING.UNLOCK_METHOD_REQUIRED',
    'BILLING.PACK_REQUIRED',
  ],
  /**
   * The session's, before any screen: a 401 renews the token or signs in again (lib/api, lib/resumable-upload), and
   * signing in registers the account (`POST /api/auth/signup`: not found until then) or ends on a deleted one.
   */
  session: ['AUTH.REQUIRED', 'AUTH.INVALID_TOKEN', 'ACCOUNT.NOT_FOUND', 'ACCOUNT.DELETED'],
  /**
   * Acted on by the screen that receives them, by code or status: a payment found paid goes on as paid, no
   * subscription is no credits (the plan badge says so), the password reset's 429 has its own toast, and the upload
   * client goes on from the server's offset.
   */
  actedOn: ['BILLING.ALREADY_PAID', 'BILLING.NO_SUBSCRIPTION', 'AUTH.TOO_MANY_REQUESTS', 'UPLOAD.OFFSET_MISMATCH'],
  /**
   * Generic answers: the place's own fallback, which names what failed, says more (a refused field's code is in the
   * answer's `fields`).
   */
  generic: ['VALIDATION.FAILED', 'HTTP.INTERNAL_SERVER_ERROR', 'HTTP.FORBIDDEN', 'RESOURCE.NOT_FOUND'],
  /**
   * Answers of requests whose screen does not read this table and says what failed in its own words: a file that
   * does not load (the players, the downloads), a cancel that came too late (the status shows the rest), the mix
   * session's page (its tracks, its settings, asking for the mix), the plans' "could not cancel" toast, the unlock
   * that follows a payment (its answer is not waited for: the track is), marking a notification read.
   */
  ownMessage: [
    'FILE.NOT_FOUND',
    'TRACKS.NOT_PROCESSING',
    'MIXING.TRACK_NOT_FOUND',
    'MIXING.FILE_NOT_FOUND',
    'MIXING.MINIMUM_FILES',
    'MIXING.BUSY',
    'BILLING.PACK_NOT_FOUND',
    'BILLING.PACK_NOT_RENEWING',
    'BILLING.PAYMENT_MISMATCH',
    'NOTIFICATIONS.NOT_FOUND',
  ],
  /**
   * The HTTP and resumable-upload protocols, which the client's code speaks (tus-js-client, lib/api): one of these is
   * a bug, shown as the place's generic failure. `UPLOAD.ABORTED` goes to a request whose sender cut it short, and is
   * never read.
   */
  protocol: [
    'HTTP.BAD_REQUEST',
    'HTTP.NOT_FOUND',
    'HTTP.METHOD_NOT_ALLOWED',
    'HTTP.PAYLOAD_TOO_LARGE',
    'HTTP.UNSUPPORTED_MEDIA_TYPE',
    'UPLOAD.ABORTED',
    'UPLOAD.CONTENT_TYPE',
    'UPLOAD.LENGTH_REQUIRED',
    'UPLOAD.METADATA',
    'UPLOAD.OFFSET_REQUIRED',
    'UPLOAD.PAST_LENGTH',
    'UPLOAD.PURPOSE',
    'UPLOAD.TUS_VERSION',
  ],
  /**
   * Never sent to the client's screens: the operators' routes, the providers' callbacks, the workers' own steps, the
   * e-mailed download links (opened in the browser, not in the app), a full result asked for before it is unlocked
   * (the client only asks once it is), a payment's amount (the client sends none: the price is the server's).
   */
  notForScreens: [
    'OPS.TOKEN_REQUIRED',
    'ACCOUNT.PURGE_NOT_DUE',
    'BILLING.INVALID_SIGNATURE',
    'BILLING.NOT_REFUNDABLE',
    'BILLING.NO_ANOMALY',
    'BILLING.REFUND_EXCEEDS_CAPTURE',
    'TRACKS.STALE_JOB',
    'MIXING.STALE_JOB',
    'TRACKS.LINK_EXPIRED',
    'MIXING.LINK_EXPIRED',
    'TRACKS.LOCKED',
    'MIXING.LOCKED',
    'BILLING.AMOUNT_MISMATCH',
  ],
} as const satisfies Record<string, readonly ServerCode[]>;

/** A code `UNTRANSLATED` lists. */
export type UntranslatedCode = (typeof UNTRANSLATED)[keyof typeof UNTRANSLATED][number];

const INVALID_CHOICE = { uploadBanner: 'upload.errors.invalidChoice' } as const;
const LIBRARY_FORMAT = 'library.media.errors.format';
const NOT_COMPLETED = { payment: 'payment:errors.notCompleted' } as const;
const engine = <Problem extends string>(problem: Problem) => ({ jobFailure: `failures.${problem}` as const });
/**
 * A refusal any request can meet, in the words of every place that shows an answer's code (not beside a file or a
 * field, not as a job's failure).
 */
const anyRequest = <Problem extends 'tooManyRequests' | 'conflict' | 'accountDeactivated'>(problem: Problem) =>
  ({
    uploadBanner: `errors.${problem}`,
    library: `errors.server.${problem}`,
    mixingUpload: `common:errors.server.${problem}`,
    mixingCreate: `common:errors.server.${problem}`,
    payment: `errors.server.${problem}`,
    credit: `errors.server.${problem}`,
    deactivate: `errors.server.${problem}`,
    resultEmail: `errors.server.${problem}`,
  }) as const;
const OFFER_UNAVAILABLE = { payment: 'payment:errors.offerUnavailable' } as const;
const profile = <Problem extends string>(problem: Problem) => ({
  profile: `account.profile.errors.${problem}` as const,
});

export const ERROR_KEYS: { readonly [Code in Exclude<ServerCode, UntranslatedCode>]: Row } = {
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
  'HTTP.TOO_MANY_REQUESTS': anyRequest('tooManyRequests'),
  'CONCURRENCY.CONFLICT': anyRequest('conflict'),
  'EVENTSTORE.WRONG_EXPECTED_REVISION': anyRequest('conflict'),
  'ACCOUNT.DEACTIVATED': anyRequest('accountDeactivated'),
  'UPLOAD.NOT_FOUND': { uploadBanner: 'upload.errors.expired', mixingUpload: 'problems.uploadExpired' },
  'UPLOAD.INCOMPLETE': { uploadBanner: 'upload.errors.incomplete', mixingUpload: 'problems.uploadIncomplete' },
  'TRACKS.NOT_READY': { resultEmail: 'studio:email.notReady' },
  'MIXING.SESSION_NOT_FOUND': {
    mixingUpload: 'errors.notFound',
    payment: 'errors.server.mixNotFound',
    credit: 'errors.server.mixNotFound',
  },
  'BILLING.PAYMENT_NOT_CAPTURED': { payment: 'payment:errors.notCaptured' },
  'BILLING.PAYMENT_NOT_FOUND': { payment: 'payment:errors.paymentNotFound' },
  'BILLING.UNKNOWN_PLAN': OFFER_UNAVAILABLE,
  'BILLING.PLAN_NOT_PURCHASABLE': OFFER_UNAVAILABLE,
  'BILLING.PLAN_MISMATCH': OFFER_UNAVAILABLE,
  'BILLING.SERVICE_MISMATCH': { payment: 'payment:errors.serviceMismatch' },
  'BILLING.RESULT_NOT_READY': { credit: 'payment:errors.resultNotReady' },
  'ENGINE.INPUT_NOT_FOUND': engine('INPUT_NOT_FOUND'),
  'ENGINE.NO_VIDEO_TRACK': engine('NO_VIDEO_TRACK'),
  'ENGINE.ENCODE_FAILED': engine('ENCODE_FAILED'),
  'ENGINE.TOOL_MISSING': engine('TOOL_MISSING'),
  'ENGINE.CANCELLED': engine('CANCELLED'),
  'ENGINE.INTERNAL': engine('INTERNAL'),
  'PROCESSING.FAILED': { jobFailure: 'errors.processingFailedRetry' },
  'PROCESSING.WORKER_LOST': { jobFailure: 'failures.WORKER_LOST' },
  'PROCESSING.CANCELLED': { jobFailure: 'failures.CANCELLED' },
  'PROCESSING.UNSUPPORTED_SERVICE': { jobFailure: 'failures.UNSUPPORTED_SERVICE' },
};

/** The key `place` shows for a server code, if the table has one. */
export function errorKeyFor(place: ErrorPlace, code: string | null | undefined): string | undefined {
  const rows: Partial<Record<string, Row>> = ERROR_KEYS;
  return code && Object.hasOwn(rows, code) ? rows[code]![place] : undefined;
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
