import { resources } from '../locales/resources';

/** The first part of every key of every namespace (`account`, `subscription`, `errors`...). */
const ROOTS = [
  ...new Set(
    Object.values(resources.en).flatMap((namespace) =>
      Object.entries(namespace)
        .filter(([, value]) => typeof value === 'object')
        .map(([key]) => key),
    ),
  ),
];
const NAMESPACES = Object.keys(resources.en);
const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** What i18next shows for a missing text: its key, `root.rest` or `namespace:root.rest`. */
const KEY = new RegExp(
  `(?<![\\w.-])(?:(?:${NAMESPACES.map(escape).join('|')}):)?(?:${ROOTS.map(escape).join('|')})\\.[A-Za-z_][\\w.]*`,
  'g',
);

/** The translation keys shown raw in `element`: in its text, or in its labels, titles and alternative texts. */
export function rawTranslationKeys(element: Element): string[] {
  const attributes = [...element.querySelectorAll('[aria-label], [title], [placeholder], [alt]')].flatMap((node) =>
    ['aria-label', 'title', 'placeholder', 'alt'].map((name) => node.getAttribute(name) ?? ''),
  );
  const texts: string[] = [];
  const walker = element.ownerDocument.createTreeWalker(element, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) texts.push(node.nodeValue ?? '');
  return [...texts, ...attributes].flatMap((text) => text.match(KEY) ?? []);
}
