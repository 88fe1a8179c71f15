/* global window, document, getComputedStyle, NodeFilter, Node, history, PopStateEvent, requestAnimationFrame -- the functions given to page.evaluate run in the browser */
// Every screen at 320, 375 and 768 px, in English and in French (issue 31): the real server, real results (the
// account's demos, one mastering upload, one two-track mix, a pack bought through the PayPal sandbox), the built
// client. One signed-in page walks the screens; each screen is opened once per language and looked at in the three
// widths by resizing the viewport. It fails on what a person would see as broken: horizontal overflow, a control
// outside the screen, cut by its container or under another element, a dialog whose main buttons need scrolling
// inside it, a word broken across two lines, a raw translation key, English on a French page, a number or date not
// written the language's way, serious axe violations, and more than two toasts (or a third of the screen) on a phone.
// A screen with findings is saved as a PNG under ARTIFACTS/layout/screens (`web/e2e/run.mjs` prints the folder).
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { ARTIFACTS, ROOT, launchBrowser, recordFailures, signInOnProvider, startServer, watch } from './support.mjs';

recordFailures('layout');

const require = createRequire(import.meta.url);
const AXE = await readFile(require.resolve('axe-core/axe.min.js'), 'utf8');
const SCREENS = join(ARTIFACTS, 'layout', 'screens');

/** Phone (small and common) and tablet, each with a real device's height: dialogs must fit these. */
const VIEWPORTS = [
  { width: 320, height: 568 },
  { width: 375, height: 667 },
  { width: 768, height: 1024 },
];
/** Phones and tablets: at most two toasts at once (web/src/lib/toast.ts). */
const SMALL_SCREEN_MAX = 768;

const PERSON = {
  firstName: 'Awa',
  lastName: 'Diop',
  email: `awa.diop.layout.${Date.now()}@example.com`,
  password: 'Ndeye-Coumba-2026',
};

// ---------------------------------------------------------------------------------------------------------------
// The vocabulary of each language, from the locale files: English words on a French page are those of the English
// texts that no French text uses (a French text identical to its English one does not count: it may be untranslated).

/** Words that may stay as they are on a French page: brand and product names, units, formats, language names. */
const KEEP_IN_FRENCH = [
  'kora',
  'paypal',
  'orange',
  'money',
  'max',
  'it', // "Max it", Orange's app
  'wav',
  'mp3',
  'mp4',
  'flac',
  'zip',
  'lufs',
  'dbtp',
  'db',
  'hz',
  'khz',
  'fcfa',
  'cfa',
  'usd',
  'eur',
  'xof',
  'english', // the language picker names each language in that language
  'spotify',
  'apple',
  'youtube',
  'deezer',
  'tidal',
  'soundcloud',
  'streaming',
  'mobile', // "Mobile money", the name used in French-speaking West Africa
  'visa',
  'mastercard',
  // The same word in French: cognates, and names given as they are in both languages (country, genre, currency).
  'position',
  'instrument',
  'centre',
  'orchestral',
  'euro',
  'reggae',
  'dub',
  'metal',
  'hip',
  'hop',
  'grime',
  'togo',
  'niger',
  'mali',
  'france',
  'canada',
  'burkina',
  'faso',
  'côte',
  'ivoire',
];
/** English words no French text has a use for, even if some French text carries them by mistake. */
const ALWAYS_ENGLISH = [
  'the',
  'and',
  'your',
  'you',
  'with',
  'of',
  'to',
  'for',
  'is',
  'are',
  'this',
  'that',
  'from',
  'by',
  'has',
  'have',
  'will',
  'can',
  'was',
  'we',
  'our',
  'my',
  'please',
  'here',
  'what',
  'which',
  'when',
  'how',
  'yet',
  'ago',
  'its',
  'been',
  'into',
  'than',
  'these',
  'those',
  'their',
  'they',
  'yesterday',
  'tomorrow',
  'today',
  'left',
  'used',
  'ready',
  'cancel',
  'close',
  'download',
  'upload',
  'settings',
];
const EN_MONTHS =
  'January|February|March|April|May|June|July|August|September|October|November|December|Jan|Feb|Mar|Apr|Jun|Jul|Aug|Sep|Sept|Oct|Nov|Dec';
const EN_DAYS = 'Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday|Mon|Tue|Wed|Thu|Fri|Sat|Sun';
// Not the abbreviations English shares (sept, oct, nov).
const FR_MONTHS =
  'janvier|février|mars|avril|mai|juin|juillet|août|septembre|octobre|novembre|décembre|janv|févr|avr|juil|déc';

const words = (text) =>
  text
    .replace(/\{\{[^}]*\}\}/g, ' ')
    .replace(/<[^>]*>/g, ' ')
    .toLowerCase()
    .match(/\p{L}+/gu) ?? [];

function* leaves(value, path = []) {
  if (typeof value === 'string') yield [path.join('.'), value];
  else if (value && typeof value === 'object')
    for (const [key, child] of Object.entries(value)) yield* leaves(child, [...path, key]);
}

async function vocabulary() {
  const dir = join(ROOT, 'web', 'src', 'locales');
  const english = new Map();
  const french = new Map();
  for (const file of (await readdir(join(dir, 'en'))).filter((name) => name.endsWith('.json'))) {
    const ns = basename(file, '.json');
    for (const [key, value] of leaves(JSON.parse(await readFile(join(dir, 'en', file), 'utf8'))))
      english.set(`${ns}:${key}`, value);
    for (const [key, value] of leaves(JSON.parse(await readFile(join(dir, 'fr', file), 'utf8'))))
      french.set(`${ns}:${key}`, value);
  }
  const frenchWords = new Set();
  for (const [key, value] of french)
    if (english.get(key) !== value) for (const word of words(value)) frenchWords.add(word);
  const englishOnly = new Set();
  for (const value of english.values())
    for (const word of words(value)) if (!frenchWords.has(word)) englishOnly.add(word);
  for (const word of ALWAYS_ENGLISH) englishOnly.add(word);
  for (const word of KEEP_IN_FRENCH) englishOnly.delete(word);
  // What a missing key shows: the key itself, or a prefix of one ("payment:orange.title", "orange.title").
  const keyHeads = new Set([...english.keys()].map((key) => key.split(':')[1].split('.')[0]));
  const namespaces = [...new Set([...english.keys()].map((key) => key.split(':')[0]))];
  return { englishOnly: [...englishOnly].filter((word) => word.length > 1), keyHeads: [...keyHeads], namespaces };
}

// ---------------------------------------------------------------------------------------------------------------
// What is looked at on a screen, in the page: returns findings as { check, detail }.

function audit({ lang, englishOnly, keyHeads, namespaces, data, enMonths, enDays, frMonths }) {
  const findings = [];
  const add = (check, detail) => findings.push({ check, detail });
  const vw = document.documentElement.clientWidth;
  const vh = window.innerHeight;
  const describe = (element) => {
    const classes = [...(element.classList ?? [])].slice(0, 3).join('.');
    const text = (element.getAttribute?.('aria-label') || element.textContent || '').trim().replace(/\s+/g, ' ');
    return `<${element.tagName.toLowerCase()}${element.id ? `#${element.id}` : ''}${classes ? `.${classes}` : ''}>${
      text ? ` "${text.slice(0, 40)}"` : ''
    }`;
  };
  const shown = (element) =>
    element.checkVisibility({ checkOpacity: true, checkVisibilityCSS: true }) &&
    element.getBoundingClientRect().width > 2 &&
    element.getBoundingClientRect().height > 2;
  const dialogs = [...document.querySelectorAll('[role=dialog][aria-modal=true]')].filter(shown);
  const dialog = dialogs.at(-1) ?? null;
  const scope = dialog ?? document.body;

  // 1. Horizontal overflow of the page.
  const overflow = document.documentElement.scrollWidth - vw;
  if (overflow > 0) {
    const wide = [...document.body.querySelectorAll('*')]
      .filter((element) => shown(element) && element.getBoundingClientRect().right > vw + 1)
      .filter((element) => !element.parentElement || element.parentElement.getBoundingClientRect().right <= vw + 1)
      .slice(0, 4)
      .map(describe);
    add('overflow', `${overflow}px of horizontal overflow (${wide.join(', ')})`);
  }

  // 2. Controls: inside the screen, not cut by a container, not under another element.
  const POPUPS = '.dropdown:not([hidden]), [role=menu], [role=listbox]';
  const CONTROLS =
    'a[href], button, input:not([type=hidden]), select, textarea, summary, [role=button], [role=link], [role=tab], [role=menuitem], [role=checkbox], [role=radio], [role=switch], [tabindex]:not([tabindex="-1"])';
  const controls = [...scope.querySelectorAll(CONTROLS)].filter(shown);
  const clippers = (element) => {
    const list = [];
    for (let node = element.parentElement; node && node !== document.body; node = node.parentElement) {
      const style = getComputedStyle(node);
      if (style.overflowX !== 'visible' || style.overflowY !== 'visible') list.push({ node, style });
      if (style.position === 'fixed') break;
    }
    return list;
  };
  const inFixedLayer = (element) => {
    for (let node = element; node && node !== document.body; node = node.parentElement)
      if (['fixed', 'sticky'].includes(getComputedStyle(node).position)) return node;
    return null;
  };
  for (const control of controls) {
    const rect = control.getBoundingClientRect();
    const scrollers = clippers(control);
    const scrolledSideways = scrollers.some(
      ({ node, style }) => ['auto', 'scroll'].includes(style.overflowX) && node.scrollWidth > node.clientWidth + 1,
    );
    if (!scrolledSideways && (rect.left < -1 || rect.right > vw + 1))
      add(
        'outside',
        `${describe(control)} is outside the screen (x ${Math.round(rect.left)} to ${Math.round(rect.right)} of ${vw})`,
      );
    for (const { node, style } of scrollers) {
      const box = node.getBoundingClientRect();
      const cutsX = ['hidden', 'clip'].includes(style.overflowX);
      const cutsY = ['hidden', 'clip'].includes(style.overflowY);
      if (
        (cutsX && (rect.left < box.left - 1 || rect.right > box.right + 1)) ||
        (cutsY && (rect.top < box.top - 1 || rect.bottom > box.bottom + 1))
      ) {
        add('cut', `${describe(control)} is cut by ${describe(node)}`);
        break;
      }
    }
  }
  // A table fits its box: on a phone a table scrolled sideways hides its last column behind the edge ("Statu").
  for (const table of scope.querySelectorAll('table')) {
    if (!shown(table)) continue;
    const box = clippers(table).find(({ style }) => ['auto', 'scroll'].includes(style.overflowX));
    if (box && box.node.scrollWidth > box.node.clientWidth + 1)
      add(
        'cut',
        `${describe(table)} needs ${box.node.scrollWidth}px in ${box.node.clientWidth}px: it scrolls sideways`,
      );
  }
  // A dialog's buttons and links (not its fields, nor the rows of a list or table inside it) are in view without
  // scrolling inside it.
  if (dialog) {
    const main = controls.filter(
      (control) =>
        control.matches('button, a[href], [role=button]') &&
        !control.closest('li, tr, [role=row], [role=listitem], [role=option]'),
    );
    for (const control of main) {
      const rect = control.getBoundingClientRect();
      if (rect.top < -1 || rect.bottom > vh + 1) {
        add(
          'dialog',
          `${describe(control)} of the dialog is off screen (y ${Math.round(rect.top)} to ${Math.round(rect.bottom)} of ${vh})`,
        );
        continue;
      }
      for (const { node } of clippers(control)) {
        if (!dialog.contains(node) && node !== dialog) break;
        const box = node.getBoundingClientRect();
        if (rect.top < box.top - 1 || rect.bottom > box.bottom + 1) {
          add('dialog', `${describe(control)} needs scrolling inside ${describe(node)} to be seen`);
          break;
        }
      }
    }
  }
  // Under another element: five points of each control (its centre and four points 4 px in from its corners) must
  // reach the control itself (or what it holds, or its label), not some other element drawn over it. Overlays
  // (toasts, sticky banners) are left to their own checks. The page is looked at in screenfuls.
  const covered = (control) => {
    const rect = control.getBoundingClientRect();
    const points = [
      [rect.left + rect.width / 2, rect.top + rect.height / 2],
      [rect.left + 4, rect.top + 4],
      [rect.right - 4, rect.top + 4],
      [rect.left + 4, rect.bottom - 4],
      [rect.right - 4, rect.bottom - 4],
    ];
    const layer = inFixedLayer(control);
    for (const [x, y] of points) {
      if (x < 0 || y < 0 || x >= vw || y >= vh) continue;
      const hit = document.elementFromPoint(x, y);
      if (!hit || hit === control || control.contains(hit) || hit.contains(control)) continue;
      if (hit.closest('label') && hit.closest('label') === (control.labels?.[0] ?? null)) continue;
      const hitLayer = inFixedLayer(hit);
      if (hitLayer && hitLayer !== layer && !hitLayer.contains(control)) continue;
      // An open popup (menu, the bell's list) is meant to cover the page under it.
      const popup = hit.closest(POPUPS);
      if (popup && !popup.contains(control)) continue;
      return hit;
    }
    return null;
  };
  // A control scrolled out of its own scrolling box (a list in a popup, a sideways strip) is hidden, not covered.
  const scrolledAway = (control) => {
    const rect = control.getBoundingClientRect();
    return clippers(control).some(({ node }) => {
      const box = node.getBoundingClientRect();
      return (
        rect.top < box.top - 1 || rect.bottom > box.bottom + 1 || rect.left < box.left - 1 || rect.right > box.right + 1
      );
    });
  };
  const seen = new Set();
  const look = () => {
    for (const control of controls) {
      if (seen.has(control)) continue;
      const rect = control.getBoundingClientRect();
      if (rect.top < 0 || rect.bottom > vh || scrolledAway(control)) continue;
      seen.add(control);
      const hit = covered(control);
      if (hit) add('covered', `${describe(control)} is under ${describe(hit)}`);
    }
  };
  const startY = window.scrollY;
  if (dialog) look();
  else {
    const height = document.documentElement.scrollHeight;
    for (let y = 0; y < height; y += Math.floor(vh * 0.75)) {
      window.scrollTo({ top: y, behavior: 'instant' });
      look();
    }
    window.scrollTo({ top: startY, behavior: 'instant' });
  }

  // 3. Text: words broken across lines, raw keys, English on a French page, numbers and dates.
  const strip = (text) => {
    let out = text;
    for (const value of data) out = out.split(value).join(' ');
    return out
      .replace(/\S+@\S+\.\w+/g, ' ')
      .replace(/\b[\w.-]+\.(?:wav|mp3|mp4|zip|flac|png|json|com|org|fr)\b/gi, ' ');
  };
  const texts = [];
  const walker = document.createTreeWalker(scope, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const parent = node.parentElement;
    if (!parent || !node.textContent.trim() || parent.closest('script, style, noscript, option')) continue;
    if (!parent.checkVisibility({ checkOpacity: true, checkVisibilityCSS: true })) continue;
    texts.push({ text: node.textContent, element: parent, node });
  }
  for (const element of scope.querySelectorAll('[aria-label], [title], [placeholder], img[alt]')) {
    if (!shown(element)) continue;
    for (const name of ['aria-label', 'title', 'placeholder', 'alt'])
      if (element.getAttribute(name)) texts.push({ text: element.getAttribute(name), element, attribute: name });
  }
  for (const select of scope.querySelectorAll('select'))
    if (shown(select))
      for (const option of select.options) texts.push({ text: option.text, element: select, attribute: 'option' });

  const exempt = (element) =>
    element.closest('code, kbd, samp, pre, [translate=no], .om-modal__merchant, .language-menu');
  const keyPattern = new RegExp(
    `(?:\\b(?:${namespaces.join('|')}):[a-zA-Z]\\w*(?:\\.\\w+)*)|(?:\\b(?:${keyHeads.join('|')})(?:\\.[a-zA-Z]\\w*)+\\b)`,
  );
  const englishWords = new Set(englishOnly);
  const dateChecks =
    lang === 'fr'
      ? [
          [/\d\.\d/, 'a decimal point'],
          [/\d,\d{3}(?!\d)/, 'a comma between thousands'],
          [/\b\d{1,2}:\d{2}\s?[AaPp]\.?[Mm]\b/, 'a 12-hour time'],
          [/[$£€]\s?\d/, 'a currency sign before the amount'],
          [/\d%/, 'no space before %'],
          [new RegExp(`\\b(?:${enMonths})\\.?\\s+\\d|\\d\\s+(?:${enMonths})\\b`), 'an English month'],
          [new RegExp(`\\b(?:${enDays})\\b`), 'an English day'],
          [/\b\d+(?:st|nd|rd|th)\b/, 'an English ordinal'],
        ]
      : [
          [/\d,\d{1,2}(?!\d)/, 'a decimal comma'],
          [/\d[\u00a0\u202f]\d{3}(?!\d)/, 'a space between thousands'],
          [/\d[\s\u00a0\u202f]%/, 'a space before %'],
          [/\d[\s\u00a0\u202f]?€/, 'the euro sign after the amount'],
          [new RegExp(`\\b(?:${frMonths})\\.?\\s+\\d|\\d\\s+(?:${frMonths})\\b`, 'i'), 'a French month'],
          [/\b\d{1,2}\s?h\s?\d{2}\b/, 'a French time'],
        ];
  dateChecks.push(
    [/\b\d{4}-\d{2}-\d{2}/, 'a raw ISO date'],
    [/(?<![\w.-])\d{5,}(?![\w.-])/, 'an ungrouped number'],
    [/\b(?:NaN|undefined|null|Invalid Date|\[object Object\])\b/, 'a raw value'],
  );
  const reported = new Set();
  const once = (check, detail) => {
    if (reported.has(`${check} ${detail}`)) return;
    reported.add(`${check} ${detail}`);
    add(check, detail);
  };
  for (const { text, element, node, attribute } of texts) {
    const where = attribute ? `${describe(element)} [${attribute}]` : describe(element);
    const clean = strip(text);
    const key = keyPattern.exec(clean);
    if (key) once('i18n-key', `"${key[0]}" in ${where}`);
    if (exempt(element)) continue;
    if (lang === 'fr') {
      const found = words(clean).filter((word) => englishWords.has(word));
      if (found.length > 0) once('english', `"${text.trim().slice(0, 60)}" (${found.join(', ')}) in ${where}`);
    }
    for (const [pattern, what] of dateChecks) {
      const match = pattern.exec(clean);
      if (match) once('format', `${what}: "${text.trim().slice(0, 60)}" in ${where}`);
    }
    // A word broken across two lines (the text is on several lines: each word's boxes are looked at).
    if (node && !attribute) {
      const range = document.createRange();
      range.selectNodeContents(node);
      const lines = new Set([...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top)));
      if (lines.size < 2) continue;
      const pattern = /\p{L}[\p{L}\p{M}’'-]*\p{L}/gu;
      for (let match = pattern.exec(node.textContent); match; match = pattern.exec(node.textContent)) {
        const word = match[0];
        if (data.some((value) => value.includes(word)) || /[-’']/.test(word)) continue;
        range.setStart(node, match.index);
        range.setEnd(node, match.index + word.length);
        const tops = [...range.getClientRects()].filter((r) => r.width > 0).map((r) => r.top);
        if (tops.length > 1 && Math.max(...tops) - Math.min(...tops) > 4)
          once('word-break', `"${word}" is broken across lines in ${describe(element)}`);
      }
    }
  }
  // Text cut by its box: a select too narrow for its chosen option, an element whose text is clipped.
  for (const select of scope.querySelectorAll('select')) {
    if (!shown(select)) continue;
    const style = getComputedStyle(select);
    const canvas = document.createElement('canvas').getContext('2d');
    canvas.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
    const needed = canvas.measureText(select.selectedOptions[0]?.text ?? '').width;
    const room = select.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight) - 16;
    if (needed > room + 1)
      once(
        'cut',
        `${describe(select)} shows "${select.selectedOptions[0].text}" in ${Math.round(room)}px for ${Math.round(needed)}px`,
      );
  }
  for (const element of scope.querySelectorAll('*')) {
    if (!shown(element) || element.matches('select, input, textarea')) continue;
    const style = getComputedStyle(element);
    if (!['hidden', 'clip'].includes(style.overflowX) || element.scrollWidth <= element.clientWidth + 1) continue;
    if (![...element.childNodes].some((child) => child.nodeType === Node.TEXT_NODE && child.textContent.trim()))
      continue;
    if (style.textOverflow === 'ellipsis' && element.title) continue;
    once('cut', `the text of ${describe(element)} is cut (${element.scrollWidth}px in ${element.clientWidth}px)`);
  }
  return findings;

  function words(text) {
    return text.toLowerCase().match(/\p{L}+/gu) ?? [];
  }
}

// ---------------------------------------------------------------------------------------------------------------

let server;
let browser;
let page;
let media;
let token;
let vocab;
const ids = {};
/** User data shown on screens (file names, the mix's name, the person): not interface text. */
const data = [];
const pageErrors = [];
const results = { en: [], fr: [] };
const timing = { open: 0, audit: 0, axe: 0, toasts: 0, jobs: 0 };
let jobs;

/** A WAV made by ffmpeg: `seconds` of a tone. */
function wav(name, seconds, frequency) {
  const path = join(media, name);
  execFileSync('ffmpeg', [
    ...['-hide_banner', '-loglevel', 'error', '-y'],
    ...['-f', 'lavfi', '-i', `sine=frequency=${frequency}:duration=${seconds}`],
    ...['-af', 'volume=0.5,apulsator=hz=2', '-ac', '2', '-ar', '44100', '-c:a', 'pcm_s16le', path],
  ]);
  return path;
}

async function api(path, init = {}) {
  const response = await fetch(`${server.baseUrl}${path}`, {
    ...init,
    headers: {
      Authorization: `Bearer ${token}`,
      ...(init.body && typeof init.body === 'string' ? { 'Content-Type': 'application/json' } : {}),
      ...(init.headers ?? {}),
    },
  });
  const body = await response.json().catch(() => null);
  assert.ok(response.ok, `${init.method ?? 'GET'} ${path}: ${response.status} ${JSON.stringify(body)}`);
  return body;
}

async function until(what, probe, ms = 120_000) {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`${what}: not within ${ms / 1000} s`);
    await new Promise((resolve) => setTimeout(resolve, 300));
  }
}

/** The jobs the result screens need, started at once and waited for only when those screens come. */
async function startJobs() {
  const form = new FormData();
  form.set('service', 'AI_MASTERING');
  form.set('file', new Blob([await readFile(join(media, 'Sabar.wav'))], { type: 'audio/wav' }), 'Sabar.wav');
  const upload = await api('/api/audio/upload', { method: 'POST', body: form });
  ids.locked = upload.id;
  const { session } = await api('/api/mixing/sessions/create', {
    method: 'POST',
    body: JSON.stringify({ name: 'Thiossane' }),
  });
  ids.mix = session.id;
  const files = new FormData();
  for (const name of ['Kick 808.wav', 'Xalam.wav'])
    files.append('files', new Blob([await readFile(join(media, name))], { type: 'audio/wav' }), name);
  await api(`/api/mixing/sessions/${ids.mix}/tracks/batch`, { method: 'POST', body: files });
  await api(`/api/mixing/sessions/${ids.mix}/master`, { method: 'POST', body: '{}' });
  // A pack, bought through the PayPal sandbox: credits for "Use a credit", a pack in Plans, a row in Payments.
  const intent = await api('/api/payments/createIntent', {
    method: 'POST',
    body: JSON.stringify({
      provider: 'PAYPAL',
      currency: 'USD',
      planId: await starterPlan(),
      billingCycle: 'MONTHLY',
      paymentType: 'PACK',
    }),
  });
  await fetch(`${server.baseUrl}/sandbox/paypal/orders/${intent.orderId}/approve`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: '{}',
  });
  await api(`/api/payments/paypal/capture/${intent.orderId}`, { method: 'POST', body: '{}' });
  return Promise.all([
    until('the mastering job', async () =>
      ['PREVIEW_READY', 'FAILED'].includes((await api(`/api/audio/track/${ids.locked}/status`)).status),
    ),
    until('the mix', async () =>
      ['COMPLETED', 'FAILED'].includes((await api(`/api/mixing/sessions/${ids.mix}/status`)).status),
    ),
    until('the demos', async () => {
      const { tracks } = await api('/api/audio/tracks?isDemo=true&limit=10');
      for (const track of tracks) {
        ids[`demo-${track.service}`] = track.id;
        data.push(track.filename);
      }
      return tracks.length >= 3;
    }),
  ]);
}

async function starterPlan() {
  const { plans } = await api('/api/plans?service=AI_MASTERING&billingCycle=MONTHLY');
  return plans.find((plan) => plan.purchasable).id;
}

/**
 * Opens `path` as the app's own links do (its router, no reload: axe, once loaded, stays), or by loading the page
 * when asked; then waits for `ready`.
 */
const go = async (path, ready, { reload = false } = {}) => {
  if (reload || !page.url().startsWith(server.baseUrl)) await page.goto(`${server.baseUrl}${path}`);
  else
    await page.evaluate((url) => {
      const state = { usr: null, key: Math.random().toString(36).slice(2, 10), idx: (history.state?.idx ?? 0) + 1 };
      history.pushState(state, '', url);
      window.dispatchEvent(new PopStateEvent('popstate', { state }));
    }, path);
  await page.locator(ready).first().waitFor();
};
/** Chooses a service in the studio's picker, as a person does. */
const pick = async (service) => {
  const index = ['AI_MASTERING', 'STEM_SEPARATION', 'AUDIO_ENHANCEMENT'].indexOf(service);
  await page.locator('.services .service__card').nth(index).click();
  await page.waitForFunction((id) => localStorage.getItem('selectedService') === id, service);
  await page.locator('.upload-card .dropzone').waitFor();
};
/** A name in either language. */
const either = (en, fr) => new RegExp(`^(?:${en}|${fr})$`);
const settle = () =>
  page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));

/** Serious and critical axe violations in `scope` (a selector; the whole page by default). */
async function seriousViolations(scope) {
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(AXE);
  const found = await page.evaluate(
    (selector) =>
      window.axe.run(selector ? document.querySelector(selector) : document, {
        resultTypes: ['violations'],
        runOnly: ['wcag2a', 'wcag2aa', 'wcag21aa', 'best-practice'],
      }),
    scope,
  );
  return found.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map((violation) => ({
      check: 'axe',
      detail: `${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`,
    }));
}

/**
 * Looks at the open screen in the three widths; a width with findings is saved as a PNG. Axe looks at `axe` (a
 * selector), the part the screen adds to one already looked at, or at the whole page.
 */
async function check(lang, name, { axe } = {}) {
  for (const viewport of VIEWPORTS) {
    await page.setViewportSize(viewport);
    await settle();
    let t = Date.now();
    const own = await page.evaluate(audit, {
      lang,
      ...vocab,
      data,
      enMonths: EN_MONTHS,
      enDays: EN_DAYS,
      frMonths: FR_MONTHS,
    });
    timing.audit += Date.now() - t;
    t = Date.now();
    const findings = [...own, ...(await seriousViolations(axe))];
    timing.axe += Date.now() - t;
    for (const finding of findings)
      results[lang].push(`${lang} ${viewport.width}px ${name}: [${finding.check}] ${finding.detail}`);
    if (findings.length > 0 || process.env.KORA_LAYOUT_SHOTS) {
      await mkdir(SCREENS, { recursive: true });
      const file = `${lang}-${viewport.width}-${name.replace(/[^A-Za-z0-9]+/g, '-')}.png`;
      // The whole page, unless a dialog is open (then what the screen shows).
      const fullPage = (await page.locator('[role=dialog][aria-modal=true]').count()) === 0;
      await page.screenshot({ path: join(SCREENS, file), fullPage }).catch(() => undefined);
    }
  }
}

/**
 * Each screen: how to open it, how to leave it, and what of it axe looks at when the rest was looked at on an earlier
 * screen (the header on the home page, the dashboard's service picker and list on the first dashboard).
 */
function screens() {
  const DIALOG = '[role=dialog][aria-modal=true]';
  const dialog = () => page.locator(DIALOG).last();
  const escape = () => page.keyboard.press('Escape');
  return [
    { name: 'home', open: () => go('/', 'main h1', { reload: true }) },
    { name: 'dashboard, AI mastering', open: () => go('/dashboard?service=AI_MASTERING', '.upload-card .dropzone') },
    {
      name: 'AI mastering with a reference track',
      axe: '.work-area',
      open: async () => {
        await page.locator('.upload-card .reference input[type=file]').setInputFiles(join(media, 'Xalam.wav'));
        await page.locator('.reference__name').waitFor();
      },
    },
    {
      name: 'dashboard, stem separation',
      axe: '.work-area',
      open: () => pick('STEM_SEPARATION'),
    },
    {
      name: 'dashboard, audio enhancement',
      axe: '.work-area',
      open: () => pick('AUDIO_ENHANCEMENT'),
    },
    {
      name: 'navigation open',
      axe: '.header',
      open: async () => {
        await go('/dashboard', '.header__toggle');
        await page.locator('.header__toggle').click();
        await page.locator('.header__collapsible.is-open').waitFor();
      },
      close: () => page.locator('.header__toggle').click(),
    },
    {
      name: 'user menu open',
      axe: '.header',
      open: async () => {
        await page.locator('.user-menu__button').click();
        await page.locator('.user-menu__panel').waitFor();
      },
      close: escape,
    },
    {
      name: 'notifications open',
      axe: '.header',
      open: async () => {
        await page.locator('.bell__button').click();
        await page.locator('.bell__panel').waitFor();
      },
      close: escape,
    },
    { name: 'settings, general', open: () => go('/accountSettings?section=general', 'form[data-ready]') },
    {
      name: 'settings, plans',
      axe: '.settings__content',
      open: () => go('/accountSettings?section=plans&service=AI_MASTERING', '#plansSection .plan-card'),
    },
    {
      name: 'pack purchase panel',
      axe: DIALOG,
      open: async () => {
        await page.locator('#plansSection .plan-card button.button:not([disabled])').first().click();
        await dialog().waitFor();
      },
      close: escape,
    },
    {
      name: 'settings, usage',
      axe: '.settings__content',
      open: () => go('/accountSettings?section=usage', '#usage-title'),
    },
    {
      name: 'settings, payments',
      axe: '.settings__content',
      open: () => go('/accountSettings?section=payments', 'section[aria-labelledby=payments-title] tbody tr'),
    },
    {
      name: 'settings, security',
      axe: '.settings__content',
      open: () => go('/accountSettings?section=security', '#security-title'),
    },
    {
      name: 'deactivation dialog',
      axe: DIALOG,
      open: async () => {
        await page.locator('.card--danger button').first().click();
        await dialog().waitFor();
      },
      close: escape,
    },
    { name: 'page not found', axe: 'main', open: () => go('/no/such/page', '.error-page h1') },
    // Results: these wait for the jobs started at sign-in.
    {
      name: 'locked result, AI mastering',
      needs: 'jobs',
      axe: '.work-area',
      open: () => go(`/dashboard?track=${ids.locked}`, '.payment-options .button'),
    },
    {
      name: 'use a credit dialog',
      axe: DIALOG,
      open: async () => {
        await page.locator('.payment-options__actions .button').first().click();
        await dialog().locator('.modal__actions').waitFor();
      },
      close: escape,
    },
    {
      name: 'pay for this track panel',
      axe: DIALOG,
      open: async () => {
        await page.locator('.payment-options__actions .button').nth(1).click();
        await page.locator('.side-panel .payment-methods .button').first().waitFor();
      },
    },
    {
      name: 'Orange Money dialog',
      axe: DIALOG,
      open: async () => {
        await page.locator('#payment-currency').selectOption('XOF');
        await page.locator('.payment-methods__orange').click();
        await page.locator('.om-modal img').waitFor();
        await page.waitForFunction(() => document.querySelector('.om-modal img')?.complete);
      },
      close: async () => {
        await page.locator('.om-modal .modal__actions .button').last().click();
        await page.locator('.om-modal').waitFor({ state: 'detached' });
        await escape();
      },
    },
    {
      name: 'demo result, AI mastering',
      needs: 'jobs',
      axe: '.work-area',
      open: () => go(`/dashboard?track=${ids['demo-AI_MASTERING']}`, '.result .report__table'),
    },
    {
      name: 'demo result, stem separation',
      needs: 'jobs',
      axe: '.work-area',
      open: () => go(`/dashboard?track=${ids['demo-STEM_SEPARATION']}`, '.result .stem-row'),
    },
    {
      name: 'demo result, audio enhancement',
      needs: 'jobs',
      axe: '.work-area',
      open: () => go(`/dashboard?track=${ids['demo-AUDIO_ENHANCEMENT']}`, '.result .report__table'),
    },
    {
      name: 'mixing board',
      needs: 'jobs',
      axe: '.work-area',
      open: () => go(`/dashboard?mix=${ids.mix}`, '.mix-row .stem-waveform'),
    },
    {
      name: 'mixing setup with two files',
      // After the mix: while it is made, the mixing studio shows it rather than a new setup.
      needs: 'jobs',
      axe: '.work-area',
      open: async () => {
        await go('/dashboard?service=AI_MIXING', '.mix-setup input[type=file]');
        await page
          .locator('.mix-setup input[type=file]')
          .setInputFiles([join(media, 'Kick 808.wav'), join(media, 'Xalam.wav')]);
        await page.locator('.mix-settings__track').nth(1).waitFor();
      },
    },
    {
      name: 'recent tracks',
      needs: 'jobs',
      axe: '.library',
      open: async () => {
        await go('/dashboard', '.recent-track');
        await pick('AI_MASTERING');
      },
    },
    {
      name: 'delete confirmation',
      axe: DIALOG,
      open: async () => {
        await page
          .locator(
            '.recent-track__actions button[aria-label^="Delete "], .recent-track__actions button[aria-label^="Supprimer "]',
          )
          .first()
          .click();
        await dialog().waitFor();
      },
      close: escape,
    },
    {
      name: 'media library',
      axe: DIALOG,
      open: async () => {
        await page.getByRole('button', { name: either('Media library', 'Médiathèque') }).click();
        await dialog().locator('tbody tr').first().waitFor();
      },
      close: escape,
    },
  ];
}

/**
 * The toasts of a sign-in with unread notifications, as the first list of a browser session shows them: on a phone
 * no more than two at once, together no more than a third of the screen, each inside it.
 */
async function checkToasts(lang) {
  // The jobs' own notifications (a preview ready, a mix made, a pack bought) are unread; announcements make up three.
  await jobs;
  const { unreadCount } = await api('/api/notifications?type=PUSH');
  for (let n = unreadCount; n < 3; n += 1)
    await server.cli('notify', [
      PERSON.email,
      ...['--title', `Studio news ${n}`, '--message', 'New presets for voice and podcasts are out.'],
      ...[
        '--title-fr',
        `Nouveautés du studio ${n}`,
        '--message-fr',
        'De nouveaux préréglages voix et podcast sont là.',
      ],
    ]);
  for (const viewport of VIEWPORTS) {
    // A new tab is a new browser session (its own session storage, the same signed-in account): its first list of
    // notifications is toasted.
    const tab = await page.context().newPage();
    await tab.setViewportSize(viewport);
    await tab.goto(`${server.baseUrl}/dashboard`);
    await tab.locator('.notification-toast').first().waitFor();
    let most = 0;
    let area = 0;
    const problems = new Set();
    // The toasts come one a second and stay four: the most show at once from two to four seconds after the first.
    for (let tick = 0; tick < 13; tick += 1) {
      const seen = await tab.evaluate(() =>
        [...document.querySelectorAll('.toaster .toast')]
          .filter((toast) => toast.checkVisibility({ checkOpacity: true }))
          .map((toast) => {
            const rect = toast.getBoundingClientRect();
            return { top: rect.top, bottom: rect.bottom, left: rect.left, right: rect.right };
          }),
      );
      most = Math.max(most, seen.length);
      const top = Math.min(...seen.map((rect) => Math.max(0, rect.top)));
      const bottom = Math.max(...seen.map((rect) => Math.min(viewport.height, rect.bottom)));
      if (seen.length > 0) area = Math.max(area, (bottom - top) / viewport.height);
      for (const rect of seen)
        if (rect.left < 0 || rect.right > viewport.width || rect.top < 0 || rect.bottom > viewport.height)
          problems.add('a toast outside the screen');
      const tooMany = viewport.width <= SMALL_SCREEN_MAX && seen.length > 2;
      if ((tooMany || area > 1 / 3) && !problems.has('shot')) {
        problems.add('shot');
        await mkdir(SCREENS, { recursive: true });
        await tab.screenshot({ path: join(SCREENS, `${lang}-${viewport.width}-toasts.png`) });
      }
      await tab.waitForTimeout(200);
    }
    await tab.close();
    const where = `${lang} ${viewport.width}px toasts at sign-in`;
    if (viewport.width <= SMALL_SCREEN_MAX && most > 2)
      results[lang].push(`${where}: [toasts] ${most} toasts at once on a phone or a tablet`);
    if (area > 1 / 3)
      results[lang].push(`${where}: [toasts] they cover ${Math.round(area * 100)} % of the screen's height`);
    for (const problem of problems) if (problem !== 'shot') results[lang].push(`${where}: [toasts] ${problem}`);
  }
}

/**
 * While fixing: KORA_LAYOUT_ONLY=<regular expression> looks only at the screens it matches (and at the toasts only if
 * it matches "toasts"); KORA_LAYOUT_SHOTS=1 saves every screen, not only those with findings.
 */
const ONLY = process.env.KORA_LAYOUT_ONLY ? new RegExp(process.env.KORA_LAYOUT_ONLY, 'i') : null;

async function walk(lang) {
  const started = Date.now();
  for (const screen of screens()) {
    if (ONLY && !ONLY.test(screen.name)) continue;
    let t = Date.now();
    if (screen.needs === 'jobs') await jobs;
    timing.jobs += Date.now() - t;
    t = Date.now();
    try {
      await screen.open();
    } catch (error) {
      // A screen that cannot be opened is a finding too; the walk goes on from a fresh page.
      const waited = /waiting for (.*)/.exec(error.message)?.[1] ?? '';
      results[lang].push(`${lang} ${screen.name}: [open] ${error.message.split('\n')[0]} ${waited}`);
      await mkdir(SCREENS, { recursive: true });
      await page.screenshot({ path: join(SCREENS, `${lang}-open-${screen.name.replace(/[^A-Za-z0-9]+/g, '-')}.png`) });
      await page.keyboard.press('Escape');
      continue;
    }
    timing.open += Date.now() - t;
    await check(lang, screen.name, { axe: screen.axe });
    t = Date.now();
    await screen.close?.();
    timing.open += Date.now() - t;
  }
  const t = Date.now();
  if (!ONLY || ONLY.test('toasts')) await checkToasts(lang);
  timing.toasts += Date.now() - t;
  process.stdout.write(`# timing ${JSON.stringify(timing)}\n`);
  process.stdout.write(
    `# layout, ${lang}: ${screens().length} screens and the toasts, 3 widths, ${((Date.now() - started) / 1000).toFixed(1)} s, ${results[lang].length} findings\n`,
  );
}

describe('every screen at 320, 375 and 768 px, in English and in French', { concurrency: false }, () => {
  before(async () => {
    const started = Date.now();
    media = await mkdtemp(join(tmpdir(), 'kora-layout-e2e-'));
    wav('Sabar.wav', 7, 220);
    wav('Kick 808.wav', 4, 60);
    wav('Xalam.wav', 4, 330);
    vocab = await vocabulary();
    data.push(
      ...[`${PERSON.firstName} ${PERSON.lastName}`, PERSON.firstName, PERSON.lastName, PERSON.email],
      ...['Thiossane', 'Sabar.wav', 'Kick 808.wav', 'Xalam.wav'],
    );
    await rm(SCREENS, { recursive: true, force: true });
    server = await startServer();
    [browser] = await Promise.all([
      launchBrowser(),
      server.cli('users', [
        ...['create', PERSON.email, PERSON.password, '--language', 'en'],
        ...['--first-name', PERSON.firstName, '--last-name', PERSON.lastName],
      ]),
    ]);
    const context = watch(
      await browser.newContext({ locale: 'en-US', timezoneId: 'Africa/Dakar', viewport: VIEWPORTS[2] }),
    );
    page = await context.newPage();
    page.setDefaultTimeout(20_000);
    page.on('pageerror', (error) => pageErrors.push(error.message));
    await page.goto(`${server.baseUrl}/dashboard`);
    await page.waitForURL(/\/oidc\/interaction\//);
    await signInOnProvider(page, PERSON);
    await page.waitForURL(`${server.baseUrl}/dashboard`);
    token = await page.evaluate(() => {
      const key = Object.keys(localStorage).find((name) => name.startsWith('oidc.user:'));
      return JSON.parse(localStorage.getItem(key)).access_token;
    });
    jobs = startJobs();
    jobs.catch(() => undefined);
    process.stdout.write(`# layout, set up in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
  });

  after(async () => {
    await browser?.close();
    await server?.stop();
    if (media) await rm(media, { recursive: true, force: true });
  });

  test('each check finds its fault on a deliberately broken screen', async () => {
    // A page of faults, one or more for each check, added to a real screen and looked at as the walk does.
    await go('/no/such/page', '.error-page h1', { reload: true });
    await page.setViewportSize(VIEWPORTS[0]);
    const run = async (lang, html) => {
      await page.evaluate((markup) => {
        const fixture = document.createElement('div');
        fixture.id = 'broken';
        fixture.innerHTML = markup;
        document.body.append(fixture);
      }, html);
      await settle();
      const found = await page.evaluate(audit, {
        lang,
        ...vocab,
        data,
        enMonths: EN_MONTHS,
        enDays: EN_DAYS,
        frMonths: FR_MONTHS,
      });
      const axe = await seriousViolations('#broken');
      await page.evaluate(() => document.getElementById('broken').remove());
      return [...found, ...axe];
    };
    const page1 = await run(
      'fr',
      `<p>payment:orange.title</p>
       <p>Preview ready</p>
       <p>Payé $4.99 le Nov 27, 2026 : 12500 FCFA</p>
       <div style="width: 60px; overflow-wrap: anywhere; font-size: 16px">Montant</div>
       <div style="width: 1200px; height: 4px"></div>
       <button style="position: relative; left: 400px">Plus loin</button>
       <div style="position: relative"><button>Dessous</button><span style="position: absolute; inset: 0; background: red">X</span></div>
       <div style="width: 80px; overflow: hidden; white-space: nowrap">Un texte bien trop long</div>
       <select style="width: 90px"><option>Une option bien trop longue pour sa boîte</option></select>
       <div class="table-wrap" style="overflow-x: auto; width: 100px"><table><tr><td style="white-space: nowrap">Une cellule bien trop longue</td></tr></table></div>
       <img src="/favicon.svg">`,
    );
    const dialog = await run(
      'en',
      `<div role="dialog" aria-modal="true" aria-label="Broken" style="position: fixed; inset: 0; overflow: auto; background: #222">
         <p style="height: 2000px">Paid 4,99 € on 27 mars 2026</p><button>Cancel</button>
       </div>`,
    );
    const checks = (list) => [...new Set(list.map((finding) => finding.check))].sort();
    assert.deepEqual(
      checks(page1),
      ['axe', 'covered', 'cut', 'english', 'format', 'i18n-key', 'outside', 'overflow', 'word-break'],
      JSON.stringify(page1, null, 1),
    );
    assert.deepEqual(checks(dialog), ['dialog', 'format'], JSON.stringify(dialog, null, 1));
    // The cut check found each of its three faults: clipped text, a narrow dropdown, a table scrolled sideways.
    assert.equal(page1.filter((finding) => finding.check === 'cut').length, 3, JSON.stringify(page1, null, 1));
  });

  test('in English: no finding on any screen', { timeout: 240_000 }, async () => {
    await walk('en');
    assert.deepEqual(results.en, [], `screens with findings are saved in ${SCREENS}`);
  });

  test('in French: no finding on any screen', { timeout: 240_000 }, async () => {
    await page.setViewportSize(VIEWPORTS[2]);
    await go('/dashboard', '.dashboard h1');
    await page.locator('footer').getByLabel('Language').selectOption('fr');
    await page.waitForFunction(() => document.documentElement.lang === 'fr');
    await walk('fr');
    assert.deepEqual(results.fr, [], `screens with findings are saved in ${SCREENS}`);
    assert.deepEqual(pageErrors, []);
  });
});
