import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from '@jest/globals';
import { resources } from '../locales/resources';
import { ERROR_KEYS, type ErrorPlace, errorKey, errorKeyFor, fieldCode, PLACES } from './error-codes';

/** The server's sources, read as text (the client never imports them): the codes it can send. */
const SERVER = join(__dirname, '..', '..', '..', 'modules');

/** Each server source file (specs and tests left out) as its name and text. */
function serverSources(dir = SERVER): Array<{ name: string; text: string }> {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (name === 'node_modules' || name === 'dist' || name === 'test') return [];
    if (statSync(path).isDirectory()) return serverSources(path);
    return /\.ts$/.test(name) && !/\.spec\.ts$/.test(name) ? [{ name, text: readFileSync(path, 'utf8') }] : [];
  });
}

function serverCodes(): Set<string> {
  return new Set(
    serverSources().flatMap(({ text }) => [...text.matchAll(/['`]([A-Z]+\.[A-Z_]+)['`]/g)].map((m) => m[1]!)),
  );
}

function translation(language: 'en' | 'fr', place: ErrorPlace, key: string): unknown {
  const [ns, path] = /^[a-z]+:/.test(key) ? key.split(':') : [PLACES[place], key];
  const tree = (resources[language] as Record<string, unknown>)[ns!];
  return path!.split('.').reduce<unknown>((node, part) => (node as Record<string, unknown> | undefined)?.[part], tree);
}

describe('the error table', () => {
  it('lists server codes only in the MODULE.PROBLEM form', () => {
    expect(Object.keys(ERROR_KEYS).filter((code) => !/^[A-Z]+\.[A-Z_]+$/.test(code))).toEqual([]);
  });

  it('lists only codes the server sends (a renamed code fails here, not in front of a user)', () => {
    const sent = serverCodes();
    expect(sent.size).toBeGreaterThan(50);
    expect(Object.keys(ERROR_KEYS).filter((code) => !sent.has(code))).toEqual([]);
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

/**
 * The per-field codes the server can send (`fields` of a 400 VALIDATION.FAILED), read from its sources: the
 * `*_FIELD_CODES` constants and the codes written inline into a `ValidationFailedError({ field: 'CODE' })`.
 */
function serverFieldCodes(): { codes: Set<string>; keys: string[] } {
  const codes = new Set<string>();
  const keys: string[] = [];
  for (const { name, text } of serverSources()) {
    for (const [block] of text.matchAll(/export const [A-Z_]*FIELD_CODES = \{[^}]*\}/g)) {
      for (const match of block.matchAll(/'([A-Z]+\.[A-Z_]+)'/g)) codes.add(match[1]!);
    }
    for (const match of text.matchAll(/ValidationFailedError\(\s*\{\s*[\w'.]+:\s*'([^']+)'/g)) {
      if (/^[A-Z]+\.[A-Z_]+$/.test(match[1]!)) codes.add(match[1]!);
      else keys.push(`${name}: ${match[1]}`);
    }
    for (const match of text.matchAll(/fields(?:\.\w+|\[[^\]]+\])\s*=\s*['`]([^'`]+)['`]/g)) {
      keys.push(`${name}: ${match[1]}`);
    }
  }
  return { codes, keys };
}

/** Where the client shows each per-field code: the place that reads that field of the answer. */
const FIELD_CODES_SHOWN: Partial<Record<ErrorPlace, string[]>> = {
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
};

/**
 * Per-field codes no screen reads: the client only sends valid values there, and the screen shows its own fallback
 * for any refusal (the preferences toast, the mix's and the payment's generic failure, the e-mail panel's "failed",
 * the plans' "could not cancel" toast).
 */
const FIELD_CODES_NOT_SHOWN = [
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
];

describe('the per-field codes', () => {
  it('are codes, never the client’s translation keys', () => {
    const { codes, keys } = serverFieldCodes();
    expect(codes.size).toBeGreaterThan(20);
    expect(keys).toEqual([]);
  });

  it('are each either shown by a place or listed as shown by none (a new server code fails here)', () => {
    const listed = [...Object.values(FIELD_CODES_SHOWN).flat(), ...FIELD_CODES_NOT_SHOWN];
    expect([...serverFieldCodes().codes].sort()).toEqual([...listed].sort());
  });

  it('have a row for the place that shows them', () => {
    const missing = Object.entries(FIELD_CODES_SHOWN).flatMap(([place, codes]) =>
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
