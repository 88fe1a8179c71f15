import { describe, expect, it } from '@jest/globals';
import { ERROR_CODES, FIELD_CODES, type FieldCode, PROCESSING_CODES } from '@kora/contracts';
import { resources } from '../locales/resources';
import { ERROR_KEYS, type ErrorPlace, errorKey, errorKeyFor, fieldCode, PLACES, UNTRANSLATED } from './error-codes';

// The codes the server can send are `@kora/contracts`' lists, which the server's errors are typed against and
// `ERROR_KEYS` and `UNTRANSLATED` too: a code the server does not send, a code with neither a row nor a place in
// `UNTRANSLATED` (or with both), or a key without its English or French text, fails the type check
// (`npm run typecheck`) before any test runs.

function translation(language: 'en' | 'fr', place: ErrorPlace, key: string): unknown {
  const [ns, path] = /^[a-z]+:/.test(key) ? key.split(':') : [PLACES[place], key];
  const tree = (resources[language] as Record<string, unknown>)[ns!];
  return path!.split('.').reduce<unknown>((node, part) => (node as Record<string, unknown> | undefined)?.[part], tree);
}

describe('the error table', () => {
  it('lists server codes only in the MODULE.PROBLEM form', () => {
    expect(Object.keys(ERROR_KEYS).filter((code) => !/^[A-Z]+\.[A-Z_]+$/.test(code))).toEqual([]);
  });

  it('lists codes the contracts declare (the type check says so; this is its runtime twin)', () => {
    const declared = new Set<string>([
      ...Object.values(ERROR_CODES).flat(),
      ...Object.values(FIELD_CODES).flat(),
      ...PROCESSING_CODES,
    ]);
    expect(declared.size).toBeGreaterThan(50);
    expect(Object.keys(ERROR_KEYS).filter((code) => !declared.has(code) && !code.startsWith('ENGINE.'))).toEqual([]);
  });

  it('has a row or a reason for every code the contracts declare, never both (the type check’s runtime twin)', () => {
    const declared = [...Object.values(ERROR_CODES).flat(), ...Object.values(FIELD_CODES).flat(), ...PROCESSING_CODES];
    const untranslated: string[] = Object.values(UNTRANSLATED).flat();
    expect(untranslated.filter((code, index) => untranslated.indexOf(code) !== index)).toEqual([]);
    expect(untranslated.filter((code) => Object.hasOwn(ERROR_KEYS, code))).toEqual([]);
    expect(declared.filter((code) => !Object.hasOwn(ERROR_KEYS, code) && !untranslated.includes(code))).toEqual([]);
  });

  it('gives each row at least one place', () => {
    expect(Object.entries(ERROR_KEYS).flatMap(([code, row]) => (Object.keys(row).length > 0 ? [] : [code]))).toEqual(
      [],
    );
  });

  it('gives keys that exist in English and French', () => {
    const missing = Object.entries(ERROR_KEYS).flatMap(([code, places]) =>
      Object.entries(places).flatMap(([place, key]) =>
        (['en', 'fr'] as const)
          .filter((language) => typeof translation(language, place as ErrorPlace, key) !== 'string')
          .map((language) => `${code} ${place} ${language}: ${key}`),
      ),
    );
    expect(missing).toEqual([]);
  });

  it('says the same code in the words of the place that shows it, else that place’s fallback', () => {
    expect(errorKey('uploadFile', 'UPLOAD.FILE_SIZE_MAX', 'x')).toBe('upload.errors.fileSizeMax');
    expect(errorKey('library', 'UPLOAD.FILE_SIZE_MAX', 'x')).toBe('library.media.errors.fileSizeMax');
    expect(errorKey('mixingUpload', 'UPLOAD.FILE_SIZE_MAX', 'x')).toBe('problems.fileSize');
    expect(errorKey('uploadBanner', 'TRACKS.ALREADY_PROCESSING', 'x')).toBe('errors.alreadyProcessing');
    expect(errorKey('uploadBanner', 'UPLOAD.FILE_SIZE_MAX', 'fallback')).toBe('fallback');
    expect(errorKey('payment', 'BILLING.PAYMENT_CLOSED', 'x')).toBe('payment:errors.notCompleted');
    expect(errorKey('jobFailure', 'ENGINE.TOO_SHORT', 'x')).toBe('failures.TOO_SHORT');
    expect(errorKey('payment', undefined, 'fallback')).toBe('fallback');
    expect(errorKey('payment', 'toString', 'fallback')).toBe('fallback');
  });
});

/** Where the client shows each per-field code: the place that reads that field of the answer. */
const FIELD_CODES_SHOWN = {
  profile: [
    'PROFILE.FIRST_NAME_REQUIRED',
    'PROFILE.LAST_NAME_REQUIRED',
    'PROFILE.TOO_LONG',
    'PROFILE.EMAIL_READ_ONLY',
    'PROFILE.INVALID_PHONE',
    'PROFILE.INVALID_POSTAL_CODE',
    'PROFILE.INVALID_COUNTRY',
    'PROFILE.INVALID_PROFILE_TYPE',
  ],
  mixingCreate: ['MIXING.NAME_REQUIRED'],
  deactivate: ['ACCOUNT.CONFIRMATION_REQUIRED'],
  resultEmail: ['EMAIL.INVALID_ADDRESS'],
} as const satisfies Partial<Record<ErrorPlace, readonly FieldCode[]>>;

/** Per-field codes no screen reads (the table's own list, with the reason). */
const FIELD_CODES_NOT_SHOWN = UNTRANSLATED.fields;

/** Every per-field code is listed above: a code the contracts add fails the type check here, named. */
type Unlisted = Exclude<
  FieldCode,
  (typeof FIELD_CODES_SHOWN)[keyof typeof FIELD_CODES_SHOWN][number] | (typeof FIELD_CODES_NOT_SHOWN)[number]
>;
const everyFieldCodeListed: [Unlisted] extends [never] ? true : Unlisted = true;

describe('the per-field codes', () => {
  it('are each either shown by a place or listed as shown by none (a new server code fails here)', () => {
    const listed: string[] = [...Object.values(FIELD_CODES_SHOWN).flat(), ...FIELD_CODES_NOT_SHOWN];
    expect(everyFieldCodeListed).toBe(true);
    expect([...Object.values(FIELD_CODES).flat()].sort()).toEqual(listed.sort());
  });

  it('have a row for the place that shows them', () => {
    const missing = Object.entries(FIELD_CODES_SHOWN).flatMap(([place, codes]: [string, readonly string[]]) =>
      codes.filter((code) => errorKeyFor(place as ErrorPlace, code) === undefined).map((code) => `${place} ${code}`),
    );
    expect(missing).toEqual([]);
  });

  it('are read from the field an answer names, else from the answer’s own code', () => {
    const body = { statusCode: 400, code: 'VALIDATION.FAILED', message: 'x', fields: { name: 'MIXING.NAME_REQUIRED' } };
    expect(fieldCode(body, 'name')).toBe('MIXING.NAME_REQUIRED');
    expect(fieldCode(body, 'mixingStyle')).toBe('VALIDATION.FAILED');
    expect(fieldCode(body, 'toString')).toBe('VALIDATION.FAILED');
    expect(fieldCode({ statusCode: 409, code: 'BILLING.ALREADY_UNLOCKED', message: 'x' }, 'name')).toBe(
      'BILLING.ALREADY_UNLOCKED',
    );
    expect(fieldCode(null, 'name')).toBeUndefined();
    expect(errorKey('profile', 'PROFILE.TOO_LONG', 'x')).toBe('account.profile.errors.tooLong');
    expect(errorKey('resultEmail', 'EMAIL.INVALID_ADDRESS', 'x')).toBe('studio:email.invalid');
    expect(errorKey('mixingCreate', 'VALIDATION.FAILED', 'fallback')).toBe('fallback');
  });
});
