#!/usr/bin/env node
// Converts test files from Vitest to Jest, in place: `node scripts/vitest-to-jest.mjs [file or folder ...]`
// (default: every TypeScript file under backend/, modules/, projections/ and web/src that imports from 'vitest').
// Re-runnable: a converted file no longer imports 'vitest', so a second run leaves it alone; run it again after
// merging a newer main to convert the test files written there in the meantime.
//
// What it rewrites (TypeScript's own parser finds the nodes; the text around them is kept byte for byte):
// - `import { describe, it, vi, ... } from 'vitest'` -> `import { describe, it, jest, ... } from '@jest/globals'`
//   (the mock types `Mock`, `MockInstance`, `Mocked`, `MockedFunction` come from 'jest-mock');
// - `vi.fn`, `vi.spyOn`, timers, `vi.mock`... -> `jest.*`; `vi.useFakeTimers()` keeps Vitest's default of leaving
//   `nextTick` and `queueMicrotask` real; `vi.stubGlobal(name, value)` -> `Object.defineProperty(globalThis, ...)`
//   exactly as Vitest does it; `vi.waitFor` -> Testing Library's `waitFor` (web files only);
// - `describe.skipIf(c)(...)` -> `(c ? describe.skip : describe)(...)`, `runIf` likewise, `.concurrent` and
//   `.sequential` dropped (Jest runs a file's tests in order), `it.fails` -> `it.failing`;
// - `it(name, { timeout }, fn)` -> `it(name, fn, timeout)`; a test or hook that takes Vitest's test context
//   (`async (context) => { context.skip() }`) is reported, since Jest would pass `done` there;
// - `expect(value, message).toEqual(x)` (Jest has no message argument) -> `expect({ [message]: value })
//   .toEqual({ [message]: x })`, so a failure still names the case; `toStrictEqual` and `toBe(<literal>)` likewise;
//   any other matcher keeps the message as a comment, listed for a look;
// - `.toBeTypeOf(t)` -> `expect(typeof value).toBe(t)`, `.toHaveBeenCalledOnce()` -> `.toHaveBeenCalledTimes(1)`,
//   `.toThrowError(` -> `.toThrow(` (Jest 30 dropped the alias).
// Anything it cannot convert faithfully is reported with its file and line, and the script exits 1.
import { execFileSync } from 'node:child_process';
import { readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const DEFAULT_ROOTS = ['backend', 'modules', 'projections', 'web/src'];
const SKIP_DIRS = new Set(['node_modules', 'dist', 'coverage', '.git']);

const SAME = new Set([
  'fn',
  'spyOn',
  'useRealTimers',
  'advanceTimersByTime',
  'advanceTimersByTimeAsync',
  'advanceTimersToNextTimer',
  'advanceTimersToNextTimerAsync',
  'runAllTimers',
  'runAllTimersAsync',
  'runOnlyPendingTimers',
  'runOnlyPendingTimersAsync',
  'runAllTicks',
  'clearAllTimers',
  'getTimerCount',
  'setSystemTime',
  'getRealSystemTime',
  'isFakeTimers',
  'restoreAllMocks',
  'clearAllMocks',
  'resetAllMocks',
  'isMockFunction',
  'mocked',
  'mock',
  'unmock',
  'doMock',
  'doUnmock',
  'resetModules',
]);
const RENAMED = { importActual: 'requireActual', importMock: 'requireMock' };
const MOCK_TYPES = new Set(['Mock', 'MockInstance', 'Mocked', 'MockedFunction', 'MockedClass', 'MockedObject']);
const RUNNER_NAMES = new Set(['describe', 'it', 'test', 'suite']);
const HOOKS = new Set(['beforeAll', 'afterAll', 'beforeEach', 'afterEach']);
const VALUE_IMPORTS = new Set([
  'describe',
  'it',
  'test',
  'expect',
  'beforeAll',
  'afterAll',
  'beforeEach',
  'afterEach',
  'vi',
]);

const problems = [];
const notes = [];

function filesFrom(paths) {
  const out = [];
  const walk = (path) => {
    const stat = statSync(path);
    if (stat.isDirectory()) {
      for (const entry of readdirSync(path)) if (!SKIP_DIRS.has(entry)) walk(join(path, entry));
    } else if (/\.(ts|tsx|mts|cts)$/.test(path) && !path.endsWith('.d.ts')) {
      out.push(path);
    }
  };
  for (const path of paths) walk(path);
  return out;
}

function convert(file) {
  const text = readFileSync(file, 'utf8');
  if (!/from\s+['"]vitest['"]/.test(text)) return false;
  const rel = relative(root, file);
  const isWeb = rel.startsWith('web/');
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, file.endsWith('x') ? 4 : 3);
  const edits = [];
  const replace = (start, end, value) => edits.push({ start, end, value });
  const where = (node) => `${rel}:${sf.getLineAndCharacterOfPosition(node.getStart(sf)).line + 1}`;
  const problem = (node, message) => problems.push(`${where(node)}: ${message}`);

  // 1. The import: which local names are Vitest's.
  const local = new Map(); // local name -> imported name
  let needsWaitFor = false;
  for (const statement of sf.statements) {
    if (!ts.isImportDeclaration(statement) || statement.moduleSpecifier.text !== 'vitest') continue;
    const clause = statement.importClause;
    const named = clause?.namedBindings && ts.isNamedImports(clause.namedBindings) ? clause.namedBindings : null;
    if (!clause || !named || clause.name) {
      problem(statement, 'only named imports from vitest are converted');
      continue;
    }
    const values = [];
    const types = [];
    for (const element of named.elements) {
      const imported = (element.propertyName ?? element.name).text;
      const name = element.name.text;
      local.set(name, imported);
      const typeOnly = clause.isTypeOnly || element.isTypeOnly;
      if (MOCK_TYPES.has(imported)) types.push(imported === name ? name : `${imported} as ${name}`);
      else if (typeOnly) problem(element, `no Jest counterpart for the type ${imported}`);
      else if (!VALUE_IMPORTS.has(imported)) problem(element, `no Jest counterpart for ${imported}`);
      else if (imported === 'vi') values.push(name === 'vi' ? 'jest' : `jest as ${name}`);
      else values.push(imported === name ? name : `${imported} as ${name}`);
    }
    const lines = [];
    if (values.length > 0) lines.push(`import { ${values.join(', ')} } from '@jest/globals';`);
    if (types.length > 0) lines.push(`import type { ${types.join(', ')} } from 'jest-mock';`);
    replace(statement.getStart(sf), statement.getEnd(), lines.join('\n'));
  }
  const viName = [...local].find(([, imported]) => imported === 'vi')?.[0];
  const isRunner = (node) => ts.isIdentifier(node) && RUNNER_NAMES.has(local.get(node.text));
  const isExpect = (node) => ts.isIdentifier(node) && local.get(node.text) === 'expect';
  const src = (node) => node.getText(sf);

  /** `expect(...)` at the root of a matcher chain such as `expect(a).not.toBe(b)`: [expectCall, matcherName, matcherCall]. */
  function matcherChain(call) {
    // call is the matcher call: <expect(...)>(.not|.resolves|.rejects)*.<matcher>(args)
    if (!ts.isPropertyAccessExpression(call.expression)) return null;
    let node = call.expression.expression;
    while (ts.isPropertyAccessExpression(node) && ['not', 'resolves', 'rejects'].includes(node.name.text)) {
      node = node.expression;
    }
    if (ts.isCallExpression(node) && isExpect(node.expression)) return node;
    return null;
  }

  const isLiteral = (node) =>
    ts.isLiteralExpression(node) ||
    ts.isNoSubstitutionTemplateLiteral(node) ||
    [ts.SyntaxKind.TrueKeyword, ts.SyntaxKind.FalseKeyword, ts.SyntaxKind.NullKeyword].includes(node.kind) ||
    (ts.isIdentifier(node) && node.text === 'undefined') ||
    (ts.isPrefixUnaryExpression(node) && ts.isNumericLiteral(node.operand));

  function visit(node) {
    // 2. vi.* calls and references (`typeof vi.fn` in a type is a qualified name).
    if (viName && ts.isQualifiedName(node) && ts.isIdentifier(node.left) && node.left.text === viName) {
      if (SAME.has(node.right.text)) replace(node.left.getStart(sf), node.left.getEnd(), 'jest');
      else problem(node, `vi.${node.right.text} has no direct Jest counterpart`);
      return;
    }
    if (viName && ts.isPropertyAccessExpression(node) && ts.isIdentifier(node.expression)) {
      if (node.expression.text === viName) {
        const member = node.name.text;
        const call = ts.isCallExpression(node.parent) && node.parent.expression === node ? node.parent : null;
        if (member === 'useFakeTimers') {
          if (call && call.arguments.length === 0) {
            // Vitest fakes every timer but nextTick and queueMicrotask; Jest fakes those too unless told.
            replace(
              call.getStart(sf),
              call.getEnd(),
              "jest.useFakeTimers({ doNotFake: ['nextTick', 'queueMicrotask'] })",
            );
          } else problem(node, 'vi.useFakeTimers(options): convert the options by hand');
          return;
        }
        if (member === 'stubGlobal') {
          if (call && call.arguments.length === 2) {
            const [name, value] = call.arguments.map(src);
            replace(
              call.getStart(sf),
              call.getEnd(),
              `Object.defineProperty(globalThis, ${name}, { value: ${value}, configurable: true, writable: true, enumerable: true })`,
            );
          } else problem(node, 'vi.stubGlobal: expected (name, value)');
          return;
        }
        if (member === 'waitFor') {
          if (!isWeb) problem(node, 'vi.waitFor outside web/: no Testing Library here, convert by hand');
          else {
            needsWaitFor = true;
            replace(node.getStart(sf), node.getEnd(), 'waitFor');
          }
          return;
        }
        if (SAME.has(member)) replace(node.expression.getStart(sf), node.expression.getEnd(), 'jest');
        else if (member in RENAMED) {
          replace(node.getStart(sf), node.getEnd(), `jest.${RENAMED[member]}`);
          notes.push(`${where(node)}: vi.${member} -> jest.${RENAMED[member]} (synchronous in Jest)`);
        } else problem(node, `vi.${member} has no direct Jest counterpart`);
        return;
      }
    }

    // 3. Runner modifiers: describe.skipIf(c), it.runIf(c), .concurrent, .sequential, .fails.
    if (ts.isPropertyAccessExpression(node) && isRunner(node.expression)) {
      const runner = src(node.expression);
      const modifier = node.name.text;
      const call = ts.isCallExpression(node.parent) && node.parent.expression === node ? node.parent : null;
      if ((modifier === 'skipIf' || modifier === 'runIf') && call && call.arguments.length === 1) {
        const condition = src(call.arguments[0]);
        const [whenTrue, whenFalse] = modifier === 'skipIf' ? [`${runner}.skip`, runner] : [runner, `${runner}.skip`];
        replace(call.getStart(sf), call.getEnd(), `(${condition} ? ${whenTrue} : ${whenFalse})`);
        ts.forEachChild(call.arguments[0], visit);
        return;
      }
      if (modifier === 'concurrent' || modifier === 'sequential') {
        replace(node.expression.getEnd(), node.getEnd(), '');
        return;
      }
      if (modifier === 'fails') {
        replace(node.name.getStart(sf), node.name.getEnd(), 'failing');
        return;
      }
    }

    if (ts.isCallExpression(node)) {
      // 4. it(name, { timeout }, fn) -> it(name, fn, timeout)
      const callee = node.expression;
      const runnerCall =
        isRunner(callee) ||
        (ts.isPropertyAccessExpression(callee) &&
          isRunner(callee.expression) &&
          ['only', 'skip', 'todo'].includes(callee.name.text));
      if (runnerCall && node.arguments.length === 3 && ts.isObjectLiteralExpression(node.arguments[1])) {
        const options = node.arguments[1];
        const props = options.properties;
        const timeout = props.find((p) => ts.isPropertyAssignment(p) && p.name.getText(sf) === 'timeout');
        if (props.length === 1 && timeout) {
          replace(options.getStart(sf), node.arguments[2].getStart(sf), '');
          replace(node.arguments[2].getEnd(), node.arguments[2].getEnd(), `, ${src(timeout.initializer)}`);
        } else problem(node, 'test options other than { timeout }: convert by hand');
      }
      // A test or hook function with a parameter takes Vitest's test context (`context.skip()`, `{ expect }`...):
      // Jest would pass `done` in its place, and fail the test for returning a promise as well.
      const base = ts.isPropertyAccessExpression(callee) ? callee.expression : callee;
      const takesContext =
        ts.isIdentifier(base) &&
        (HOOKS.has(local.get(base.text)) || (runnerCall && local.get(base.text) !== 'describe'));
      const fn = takesContext && node.arguments.find((a) => ts.isArrowFunction(a) || ts.isFunctionExpression(a));
      if (fn && fn.parameters.length > 0) {
        problem(fn, 'a test context parameter has no Jest counterpart (Jest passes `done` there): convert by hand');
      }

      // 5. Matchers.
      const expectCall = matcherChain(node);
      if (expectCall && ts.isPropertyAccessExpression(node.expression)) {
        const matcher = node.expression.name;
        const name = matcher.text;
        if (expectCall.arguments.length === 2) {
          const [value, message] = expectCall.arguments;
          const label = `[${src(message)}]`;
          const labelled =
            name === 'toEqual' ||
            name === 'toStrictEqual' ||
            (name === 'toBe' && node.arguments.length === 1 && isLiteral(node.arguments[0]));
          if (labelled && node.arguments.length === 1) {
            replace(expectCall.arguments.pos, expectCall.arguments.end, `{ ${label}: ${src(value)} }`);
            if (name === 'toBe') replace(matcher.getStart(sf), matcher.getEnd(), 'toEqual');
            const expected = node.arguments[0];
            replace(expected.getStart(sf), expected.getEnd(), `{ ${label}: ${src(expected)} }`);
            return; // the operands are copied as written: nothing inside them is converted
          }
          replace(value.getEnd(), message.getEnd(), ` /* ${src(message).replace(/\*\//g, '* /')} */`);
          notes.push(`${where(expectCall)}: the message of expect(value, message).${name} became a comment`);
          ts.forEachChild(value, visit);
          for (const argument of node.arguments) ts.forEachChild(argument, visit);
          return;
        } else if (expectCall.arguments.length > 2) problem(expectCall, 'expect with more than two arguments');
        if (name === 'toBeTypeOf') {
          const [value] = expectCall.arguments;
          const wrapped =
            ts.isIdentifier(value) || ts.isPropertyAccessExpression(value) ? src(value) : `(${src(value)})`;
          replace(value.getStart(sf), value.getEnd(), `typeof ${wrapped}`);
          replace(matcher.getStart(sf), matcher.getEnd(), 'toBe');
          return; // the value is copied as written
        }
        if (name === 'toHaveBeenCalledOnce' && node.arguments.length === 0) {
          replace(matcher.getStart(sf), node.getEnd(), 'toHaveBeenCalledTimes(1)');
        } else if (name === 'toThrowError') {
          replace(matcher.getStart(sf), matcher.getEnd(), 'toThrow');
        } else if (
          ['toBeOneOf', 'toSatisfy', 'toHaveBeenCalledExactlyOnceWith', 'toHaveBeenCalledAfter'].includes(name)
        ) {
          problem(node, `${name} is Vitest-only`);
        }
      }
      if (ts.isPropertyAccessExpression(callee) && isExpect(callee.expression)) {
        if (['soft', 'poll', 'unreachable'].includes(callee.name.text))
          problem(node, `expect.${callee.name.text} is Vitest-only`);
      }
    }
    ts.forEachChild(node, visit);
  }
  visit(sf);

  if (needsWaitFor) {
    const rtl = sf.statements.find(
      (s) =>
        ts.isImportDeclaration(s) && s.moduleSpecifier.text === '@testing-library/react' && !s.importClause?.isTypeOnly,
    );
    const named = rtl?.importClause?.namedBindings;
    if (named && ts.isNamedImports(named)) {
      if (!named.elements.some((e) => e.name.text === 'waitFor')) {
        const names = [...named.elements.map((e) => src(e)), 'waitFor'].sort((a, b) => a.localeCompare(b));
        replace(named.getStart(sf), named.getEnd(), `{ ${names.join(', ')} }`);
      }
    } else {
      const first = sf.statements.find(ts.isImportDeclaration);
      replace(first.getStart(sf), first.getStart(sf), "import { waitFor } from '@testing-library/react';\n");
    }
  }

  edits.sort((a, b) => b.start - a.start || b.end - a.end);
  let out = text;
  let last = Infinity;
  for (const edit of edits) {
    if (edit.end > last) throw new Error(`${rel}: overlapping edits at ${edit.start}`);
    out = out.slice(0, edit.start) + edit.value + out.slice(edit.end);
    last = edit.start;
  }
  if (out !== text) writeFileSync(file, out);
  return true;
}

/** The rewritten lines can outgrow the line width: the project's formatter has the last word on layout. */
function format(files) {
  if (files.length === 0) return;
  execFileSync(join(root, 'node_modules', '.bin', 'prettier'), ['--write', '--log-level', 'warn', ...files], {
    stdio: 'inherit',
  });
}

const args = process.argv.slice(2);
const files = filesFrom((args.length > 0 ? args : DEFAULT_ROOTS).map((path) => join(process.cwd(), path)));
const converted = files.filter((file) => convert(file));
format(converted);
for (const note of notes) console.log(`note: ${note}`);
for (const message of problems) console.error(`by hand: ${message}`);
console.log(
  `vitest-to-jest: ${converted.length} file(s) converted, ${problems.length} place(s) left to convert by hand`,
);
if (problems.length > 0) process.exitCode = 1;
