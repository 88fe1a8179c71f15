import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from '@jest/globals';
import { resources } from '../locales/resources';
import { applyAccountLanguage, currentLanguage, initialLanguage, LANGUAGE_KEY, setupI18n } from './i18n';

const SRC = join(__dirname, '..');
const PLURAL = /_(zero|one|two|few|many|other)$/;

function keys(value: unknown, prefix = ''): string[] {
  if (typeof value !== 'object' || value === null) return [prefix];
  return Object.entries(value).flatMap(([key, child]) => keys(child, prefix ? `${prefix}.${key}` : key));
}

/** Keys with plural forms folded: French has a "many" form that English does not. */
const logicalKeys = (tree: unknown) => [...new Set(keys(tree).map((key) => key.replace(PLURAL, '')))].sort();

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return name === 'test' ? [] : sourceFiles(path);
    return /\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name) ? [path] : [];
  });
}

interface Finding {
  file: string;
  text: string;
}

type Namespace = keyof typeof resources.en;
const NAMESPACES = Object.keys(resources.en) as Namespace[];

/** A used key as `namespace:key`: its own prefix, else the file's `useTranslation('ns')`, else common. */
function qualify(key: string, fileNamespace: string): string {
  return /^[a-z]+:/.test(key) ? key : `${fileNamespace}:${key}`;
}

/** Every namespace's keys, qualified. */
const allKnown = () => NAMESPACES.flatMap((ns) => logicalKeys(resources.en[ns]).map((key) => `${ns}:${key}`));

/** Translation keys used in code (t('...'), messageKey), and literal text shown to people in JSX. */
function scan() {
  const used: Array<Finding & { pattern: RegExp | null }> = [];
  const literals: Finding[] = [];
  const VISIBLE_ATTRIBUTES = new Set(['aria-label', 'title', 'placeholder', 'alt', 'aria-description']);
  for (const path of sourceFiles(SRC)) {
    const file = relative(SRC, path);
    const text = readFileSync(path, 'utf8');
    const fileNamespace = /useTranslation\('([a-z]+)'\)/.exec(text)?.[1] ?? 'common';
    const source = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true);
    const keyFrom = (node: ts.Node) => {
      if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) {
        used.push({ file, text: qualify(node.text, fileNamespace), pattern: null });
      } else if (ts.isTemplateExpression(node)) {
        const parts = [qualify(node.head.text, fileNamespace), ...node.templateSpans.map((span) => span.literal.text)];
        const pattern = new RegExp(
          `^${parts.map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('[^.]+')}$`,
        );
        used.push({ file, text: node.getText(), pattern });
      }
    };
    const visit = (node: ts.Node) => {
      if (ts.isCallExpression(node) && ts.isIdentifier(node.expression) && node.expression.text === 't') {
        if (node.arguments[0]) keyFrom(node.arguments[0]);
      }
      if (ts.isPropertyAssignment(node) && node.name.getText() === 'messageKey') keyFrom(node.initializer);
      if (ts.isJsxText(node) && /\p{L}/u.test(node.text)) literals.push({ file, text: node.text.trim() });
      if (
        ts.isJsxAttribute(node) &&
        VISIBLE_ATTRIBUTES.has(node.name.getText()) &&
        node.initializer &&
        ts.isStringLiteral(node.initializer) &&
        /\p{L}/u.test(node.initializer.text)
      ) {
        literals.push({ file, text: `${node.name.getText()}="${node.initializer.text}"` });
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return { used, literals };
}

describe('translations', () => {
  it('have the same namespaces in English and French', () => {
    expect(Object.keys(resources.fr).sort()).toEqual(Object.keys(resources.en).sort());
    expect(NAMESPACES).toContain('studio');
  });

  it.each(NAMESPACES)('have exactly the same keys in English and French (%s)', (ns) => {
    expect(logicalKeys(resources.fr[ns])).toEqual(logicalKeys(resources.en[ns]));
  });

  it.each(NAMESPACES)('have no empty text (%s)', (ns) => {
    for (const language of ['en', 'fr'] as const) {
      const tree = resources[language][ns];
      const empty = keys(tree).filter((key) => {
        const value = key.split('.').reduce<unknown>((node, part) => (node as Record<string, unknown>)[part], tree);
        return typeof value !== 'string' || value.trim() === '';
      });
      expect({ [language]: empty }).toEqual({ [language]: [] });
    }
  });

  it('cover every key the code uses', () => {
    const known = allKnown();
    const { used } = scan();
    // The scan itself works: the client uses well over a hundred keys.
    expect(used.length).toBeGreaterThan(100);
    const missing = used
      .filter(({ text, pattern }) => (pattern ? !known.some((key) => pattern.test(key)) : !known.includes(text)))
      .map(({ file, text }) => `${file}: ${text}`);
    expect(missing).toEqual([]);
  });

  it('are the only text the components show (no literal words in JSX)', () => {
    expect(scan().literals.map(({ file, text }) => `${file}: ${text}`)).toEqual([]);
  });

  it('use typographic apostrophes and spaces before French double punctuation', () => {
    const texts = NAMESPACES.flatMap((ns) =>
      keys(resources.fr[ns]).map((key) =>
        key.split('.').reduce<unknown>((node, part) => (node as Record<string, unknown>)[part], resources.fr[ns]),
      ),
    ) as string[];
    expect(texts.filter((text) => text.includes("'"))).toEqual([]);
    expect(texts.filter((text) => /[^\s\u00a0\u202f][;:!?](\s|$)/.test(text))).toEqual([]);
  });

  it('pick the stored choice, else the browser language, else French', () => {
    expect(initialLanguage('en', ['fr-FR'])).toBe('en');
    expect(initialLanguage(null, ['en-US', 'fr'])).toBe('en');
    expect(initialLanguage(null, ['wo-SN', 'fr-SN'])).toBe('fr');
    expect(initialLanguage(null, ['de-DE'])).toBe('fr');
    expect(initialLanguage('de', [])).toBe('fr');
  });
});

describe('the language saved on the account, at sign-in', () => {
  it("replaces the browser's and is kept on this device; anything else is ignored", async () => {
    setupI18n('fr', resources);
    localStorage.removeItem(LANGUAGE_KEY);
    expect(await applyAccountLanguage('de')).toBe(false);
    expect(await applyAccountLanguage(undefined)).toBe(false);
    expect(currentLanguage()).toBe('fr');
    expect(await applyAccountLanguage('en')).toBe(true);
    expect(currentLanguage()).toBe('en');
    expect(localStorage.getItem(LANGUAGE_KEY)).toBe('en');
    expect(document.documentElement.lang).toBe('en');
    expect(await applyAccountLanguage('en')).toBe(false);
  });
});
