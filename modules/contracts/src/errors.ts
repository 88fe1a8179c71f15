import type { EngineErrorCode } from '@kora/audio-engine/errors';

/**
 * Every code the server answers with, in the `MODULE.PROBLEM` form (docs/api.md): the `code` of an error answer
 * (`{ statusCode, code, message, details? }`), by the part of the server that refuses. Each module declares one class
 * per code in its `domain/errors.ts` (the kernel and the backend theirs beside the refusal); `CodedError.code` is typed
 * against this list, so a code sent is a code listed here, and the web client's translation table is typed against it
 * too (`web/src/lib/error-codes.ts`).
 */
export const ERROR_CODES = {
  /** The kernel: the request as a whole, the event store, storage. */
  kernel: [
    'VALIDATION.FAILED',
    'RESOURCE.NOT_FOUND',
    'CONCURRENCY.CONFLICT',
    'STORAGE.FULL',
    'EVENTSTORE.WRONG_EXPECTED_REVISION',
    'FILE.NOT_FOUND',
  ],
  /** The HTTP pipeline, sign-in and the operators' routes (backend). */
  http: [
    'HTTP.BAD_REQUEST',
    'HTTP.FORBIDDEN',
    'HTTP.NOT_FOUND',
    'HTTP.METHOD_NOT_ALLOWED',
    'HTTP.PAYLOAD_TOO_LARGE',
    'HTTP.UNSUPPORTED_MEDIA_TYPE',
    'HTTP.TOO_MANY_REQUESTS',
    'HTTP.INTERNAL_SERVER_ERROR',
    'AUTH.REQUIRED',
    'AUTH.INVALID_TOKEN',
    'OPS.TOKEN_REQUIRED',
  ],
  /** A refused upload, multipart or resumable (the kernel's HTTP helpers, the audio and mixing uploads). */
  upload: [
    'UPLOAD.ABORTED',
    'UPLOAD.AUDIO_FORMAT',
    'UPLOAD.CONTENT_TYPE',
    'UPLOAD.DAMAGED_FILE',
    'UPLOAD.FILE_FORMAT',
    'UPLOAD.FILE_REQUIRED',
    'UPLOAD.FILE_SIZE_MAX',
    'UPLOAD.FILE_SIZE_MIN',
    'UPLOAD.INCOMPLETE',
    'UPLOAD.INVALID_INTENSITY',
    'UPLOAD.INVALID_MODE',
    'UPLOAD.INVALID_PRESET',
    'UPLOAD.INVALID_REFERENCE',
    'UPLOAD.INVALID_SERVICE',
    'UPLOAD.INVALID_TARGET',
    'UPLOAD.INVALID_VIDEO_FORMAT',
    'UPLOAD.LENGTH_REQUIRED',
    'UPLOAD.METADATA',
    'UPLOAD.NOT_FOUND',
    'UPLOAD.NO_AUDIO_TRACK',
    'UPLOAD.OFFSET_MISMATCH',
    'UPLOAD.OFFSET_REQUIRED',
    'UPLOAD.PAST_LENGTH',
    'UPLOAD.PURPOSE',
    'UPLOAD.SAMPLE_RATE',
    'UPLOAD.TOO_LONG',
    'UPLOAD.TOO_MANY_FILES',
    'UPLOAD.TUS_VERSION',
  ],
  identity: [
    'ACCOUNT.NOT_FOUND',
    'ACCOUNT.DEACTIVATED',
    'ACCOUNT.DELETED',
    'ACCOUNT.PURGE_NOT_DUE',
    'AUTH.TOO_MANY_REQUESTS',
  ],
  audio: [
    'TRACKS.NOT_FOUND',
    'TRACKS.ALREADY_PROCESSING',
    'TRACKS.NOT_PROCESSING',
    'TRACKS.STALE_JOB',
    'TRACKS.LOCKED',
    'TRACKS.NOT_READY',
    'TRACKS.LINK_EXPIRED',
    'EMAIL.DAILY_LIMIT',
  ],
  mixing: [
    'MIXING.SESSION_NOT_FOUND',
    'MIXING.TRACK_NOT_FOUND',
    'MIXING.FILE_NOT_FOUND',
    'MIXING.NO_FILES',
    'MIXING.MAXIMUM_FILES',
    'MIXING.MINIMUM_FILES',
    'MIXING.BUSY',
    'MIXING.STALE_JOB',
    'MIXING.LOCKED',
    'MIXING.LINK_EXPIRED',
  ],
  billing: [
    'BILLING.ALREADY_PAID',
    'BILLING.ALREADY_UNLOCKED',
    'BILLING.AMOUNT_MISMATCH',
    'BILLING.CURRENCY_NOT_SUPPORTED',
    'BILLING.INSUFFICIENT_CREDITS',
    'BILLING.INVALID_SIGNATURE',
    'BILLING.NOT_REFUNDABLE',
    'BILLING.NO_ANOMALY',
    'BILLING.NO_SUBSCRIPTION',
    'BILLING.PACK_NOT_FOUND',
    'BILLING.PACK_NOT_RENEWING',
    'BILLING.PAYMENT_CLOSED',
    'BILLING.PAYMENT_DECLINED',
    'BILLING.PAYMENT_MISMATCH',
    'BILLING.PAYMENT_NOT_APPROVED',
    'BILLING.PAYMENT_NOT_CAPTURED',
    'BILLING.PAYMENT_NOT_FOUND',
    'BILLING.PAYMENT_UNDER_REVIEW',
    'BILLING.PLAN_MISMATCH',
    'BILLING.PLAN_NOT_PURCHASABLE',
    'BILLING.PROVIDER_NOT_OFFERED',
    'BILLING.PROVIDER_UNAVAILABLE',
    'BILLING.REFUND_EXCEEDS_CAPTURE',
    'BILLING.RESULT_NOT_READY',
    'BILLING.SERVICE_MISMATCH',
    'BILLING.UNKNOWN_PLAN',
  ],
  notifications: ['NOTIFICATIONS.NOT_FOUND'],
} as const;

type Codes<Part extends keyof typeof ERROR_CODES> = (typeof ERROR_CODES)[Part][number];
export type KernelErrorCode = Codes<'kernel'>;
export type HttpErrorCode = Codes<'http'>;
export type UploadErrorCode = Codes<'upload'>;
export type IdentityErrorCode = Codes<'identity'>;
export type AudioErrorCode = Codes<'audio'>;
export type MixingErrorCode = Codes<'mixing'>;
export type BillingErrorCode = Codes<'billing'>;
export type NotificationsErrorCode = Codes<'notifications'>;
/** The `code` of any error answer. */
export type ErrorCode = Codes<keyof typeof ERROR_CODES>;

/**
 * The codes a 400 `VALIDATION.FAILED` gives per field (its `fields`: field name to code), by the module that checks
 * the field.
 */
export const FIELD_CODES = {
  identity: [
    'PROFILE.FIRST_NAME_REQUIRED',
    'PROFILE.LAST_NAME_REQUIRED',
    'PROFILE.TOO_LONG',
    'PROFILE.EMAIL_READ_ONLY',
    'PROFILE.INVALID_PHONE',
    'PROFILE.INVALID_POSTAL_CODE',
    'PROFILE.INVALID_COUNTRY',
    'PROFILE.INVALID_PROFILE_TYPE',
    'PREFERENCES.INVALID_LANGUAGE',
    'PREFERENCES.INVALID_CURRENCY',
    'PREFERENCES.INVALID_NOTIFICATION_SETTINGS',
    'ACCOUNT.CONFIRMATION_REQUIRED',
    'AUTH.INVALID_EMAIL',
  ],
  audio: ['EMAIL.INVALID_ADDRESS', 'EMAIL.TRACK_REQUIRED'],
  mixing: [
    'MIXING.NAME_REQUIRED',
    'MIXING.INVALID_SETTINGS',
    'MIXING.INVALID_STYLE',
    'MIXING.INVALID_SAMPLE_RATE',
    'MIXING.INVALID_INSTRUMENT_GROUP',
    'MIXING.INVALID_PRESENCE_SETTING',
    'MIXING.INVALID_PAN_PREFERENCE',
    'MIXING.INVALID_REVERB_PREFERENCE',
  ],
  billing: [
    'BILLING.INVALID_PROVIDER',
    'BILLING.INVALID_CURRENCY',
    'BILLING.INVALID_PAYMENT_TYPE',
    'BILLING.INVALID_BILLING_CYCLE',
    'BILLING.TRACK_REQUIRED',
    'BILLING.UNLOCK_METHOD_REQUIRED',
    'BILLING.PACK_REQUIRED',
  ],
  notifications: ['NOTIFICATIONS.TRACK_ID_REQUIRED', 'NOTIFICATIONS.INVALID_TYPE'],
} as const;

/** A code in the `fields` of a 400 `VALIDATION.FAILED`. */
export type FieldCode = (typeof FIELD_CODES)[keyof typeof FIELD_CODES][number];

/**
 * The body of every error answer (the backend's one error filter): `code` one of `ERROR_CODES`, or `HTTP.{status}`
 * for a status the list has no code for; `message` in English; `fields` (field name to a `FIELD_CODES` code) for a 400
 * `VALIDATION.FAILED`; `details` what a refusal adds for the client's message (an upload's `limitMb`, `limitMinutes`).
 */
/** A request body as a route receives it: the contract's fields, each still to be checked. */
export type Unchecked<Body> = { [Field in keyof Body]?: unknown };

/** The answer of a route that only says it did it (a delete, a cancel, a notification read). */
export interface SuccessAnswer {
  success: true;
}

export interface ErrorAnswer {
  statusCode: number;
  code: string;
  message: string;
  fields?: Record<string, string>;
  details?: Record<string, unknown>;
}

/**
 * The `Upload-Refusal` header of a HEAD on a refused resumable upload (`/api/uploads/{id}`, URI-encoded JSON): a HEAD
 * answer has no body, so the refusal's code and details ride in it, for a client that lost the refusal with its
 * connection.
 */
export type UploadRefusal = Pick<ErrorAnswer, 'code' | 'details'>;

/** Whether a body is an error answer (a route's own answer never has a `code` of text). */
export const isErrorAnswer = (body: unknown): body is ErrorAnswer =>
  typeof body === 'object' && body !== null && typeof (body as ErrorAnswer).code === 'string';

/** Why a job failed, beyond the engine's own codes: the `errorCode` of a failed track or mix. */
export const PROCESSING_CODES = [
  'PROCESSING.FAILED',
  'PROCESSING.WORKER_LOST',
  'PROCESSING.CANCELLED',
  'PROCESSING.UNSUPPORTED_SERVICE',
] as const;

/** The `errorCode` of a failed (or cancelled) track or mix: the engine's code, else the processing's. */
export type FailureCode = EngineErrorCode | (typeof PROCESSING_CODES)[number];
export type { EngineErrorCode };
