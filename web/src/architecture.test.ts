import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from '@jest/globals';

const SRC = __dirname;

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? files(path) : /\.tsx?$/.test(name) ? [path] : [];
  });
}

/** Every relative import of the client, as [importer, imported], both relative to src/. */
function imports(): Array<[string, string]> {
  const found: Array<[string, string]> = [];
  for (const path of files(SRC)) {
    const text = readFileSync(path, 'utf8');
    for (const match of text.matchAll(/(?:from|import)\s*\(?\s*'(\.[^']+)'/g)) {
      found.push([relative(SRC, path), relative(SRC, resolve(dirname(path), match[1]!))]);
    }
  }
  return found;
}

const feature = (path: string) => /^features\/([^/]+)\//.exec(path)?.[1] ?? null;

describe('the client’s layout (app → features → lib and components)', () => {
  it('finds the imports it checks', () => {
    expect(imports().length).toBeGreaterThan(100);
  });

  it('has no import from one feature into another (the app composes them)', () => {
    const crossing = imports().filter(([from, to]) => {
      const source = feature(from);
      const target = feature(to);
      return source !== null && target !== null && source !== target;
    });
    expect(crossing).toEqual([]);
  });

  it('keeps lib/ and components/ free of features and of the app', () => {
    const upward = imports().filter(
      ([from, to]) => /^(lib|components)\//.test(from) && !from.endsWith('.test.ts') && /^(features|app)\//.test(to),
    );
    expect(upward).toEqual([]);
  });

  it('never imports server code', () => {
    const server = imports().filter(([, to]) => /^\.\.\/(backend|modules|projections)\//.test(to));
    expect(server).toEqual([]);
  });
});
