import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from '@jest/globals';
import { resources } from '../locales/resources';
import { ERROR_KEYS, type ErrorPlace, errorKey, PLACES } from './error-codes';

/** The server's sources, read as text (the client never imports them): the codes it can send. */
const SERVER = join(__dirname, '..', '..', '..', 'modules');

function serverCodes(): Set<string> {
  const codes = new Set<string>();
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      if (name === 'node_modules' || name === 'dist' || name === 'test') continue;
      if (statSync(path).isDirectory()) walk(path);
      else if (/\.ts$/.test(name) && !/\.spec\.ts$/.test(name)) {
        for (const match of readFileSync(path, 'utf8').matchAll(/['`]([A-Z]+\.[A-Z_]+)['`]/g)) codes.add(match[1]!);
      }
    }
  };
  walk(SERVER);
  return codes;
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
