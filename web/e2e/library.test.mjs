/* global window, document -- the functions given to page.evaluate run in the browser */
// The recent tracks list and the media library in Chromium, against the real server: real WAVs made with ffmpeg,
// uploaded through the API with the signed-in user's token, processed by the engine.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { launchBrowser, signUpOnProvider, startServer, recordFailures, watch } from './support.mjs';

recordFailures('library');

const require = createRequire(import.meta.url);
const AXE = await readFile(require.resolve('axe-core/axe.min.js'), 'utf8');

const PERSON = {
  firstName: 'Fatou',
  lastName: 'Ndiaye',
  email: `fatou.ndiaye.${Date.now()}@example.com`,
  password: 'Sabar-Mbalax-2026',
};

let server;
let browser;
let page;
let media;
let token;
const pageErrors = [];

/** A stereo 16-bit 44.1 kHz WAV of `seconds` (176 kB a second: 8 s is 1.4 MB, over mastering's 1 MB minimum). */
function wav(name, seconds, frequency) {
  const path = join(media, name);
  execFileSync('ffmpeg', [
    '-hide_banner',
    '-loglevel',
    'error',
    '-y',
    '-f',
    'lavfi',
    '-i',
    `sine=frequency=${frequency}:duration=${seconds}`,
    '-f',
    'lavfi',
    '-i',
    `anoisesrc=color=pink:amplitude=0.05:duration=${seconds}`,
    '-filter_complex',
    '[0][1]amix=inputs=2,aformat=channel_layouts=stereo',
    '-ar',
    '44100',
    '-c:a',
    'pcm_s16le',
    path,
  ]);
  return path;
}

async function api(path, init = {}) {
  const response = await fetch(`${server.baseUrl}${path}`, {
    ...init,
    headers: { Authorization: `Bearer ${token}`, ...(init.headers ?? {}) },
  });
  const body = await response.json();
  assert.ok(response.ok, `${init.method ?? 'GET'} ${path}: ${response.status} ${JSON.stringify(body)}`);
  return body;
}

async function upload(path, service) {
  const form = new FormData();
  form.set('service', service);
  form.set('file', new Blob([await readFile(path)], { type: 'audio/wav' }), basename(path));
  return api('/api/audio/upload', { method: 'POST', body: form });
}

async function reprocess(id, service) {
  return api(`/api/audio/track/${id}/reprocess`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ service }),
  });
}

async function finished(id) {
  const deadline = Date.now() + 90_000;
  for (;;) {
    const { status } = await api(`/api/audio/track/${id}/status`);
    if (['PREVIEW_READY', 'FAILED'].includes(status)) return status;
    if (Date.now() > deadline) throw new Error(`track ${id} stayed ${status}`);
    await new Promise((resolve) => setTimeout(resolve, 300));
  }
}

async function seriousViolations() {
  await page.evaluate(AXE);
  const results = await page.evaluate(() =>
    window.axe.run(document, {
      resultTypes: ['violations'],
      runOnly: ['wcag2a', 'wcag2aa', 'wcag21aa', 'best-practice'],
    }),
  );
  return results.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`);
}

const overflow = () => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
const recent = () => page.getByRole('region', { name: /Recent tracks|Pistes récentes/ });
const cardNames = () => recent().locator('.recent-track__name').allTextContents();

describe('recent tracks and the media library in Chromium', { concurrency: false }, () => {
  before(async () => {
    media = await mkdtemp(join(tmpdir(), 'kora-library-e2e-'));
    server = await startServer();
    browser = await launchBrowser();
    const context = watch(await browser.newContext({ locale: 'en-US', viewport: { width: 1280, height: 900 } }));
    page = await context.newPage();
    page.setDefaultTimeout(20_000);
    page.on('pageerror', (error) => pageErrors.push(error.message));
  });

  after(async () => {
    await browser?.close();
    await server?.stop();
    if (media) await rm(media, { recursive: true, force: true });
  });

  test('a new account uploads two WAVs through the API; the list shows them, searches, pages and deletes', async () => {
    await page.goto(`${server.baseUrl}/dashboard`);
    await page.waitForURL(/\/oidc\/interaction\//);
    await signUpOnProvider(page, server, PERSON);
    await page.waitForURL(`${server.baseUrl}/dashboard`);
    await recent().getByText('No tracks yet. Upload a file to get started.').waitFor();
    token = await page.evaluate(() => {
      const key = Object.keys(localStorage).find((name) => name.startsWith('oidc.user:'));
      return JSON.parse(localStorage.getItem(key)).access_token;
    });

    const sabar = await upload(wav('Sabar groove.wav', 8, 220), 'AI_MASTERING');
    const mbalax = await upload(wav('Mbalax take.wav', 7, 330), 'AUDIO_ENHANCEMENT');
    assert.equal(await finished(sabar.id), 'PREVIEW_READY');
    assert.equal(await finished(mbalax.id), 'PREVIEW_READY');
    // The list follows the socket: both are there without a reload.
    await page.waitForFunction(() => document.querySelectorAll('.recent-track').length === 2);
    assert.deepEqual(await cardNames(), ['Mbalax take.wav', 'Sabar groove.wav']);

    // Three more jobs from the same files make a second page (4 a page).
    for (const [id, service] of [
      [sabar.id, 'AUDIO_ENHANCEMENT'],
      [mbalax.id, 'AI_MASTERING'],
      [sabar.id, 'AI_MASTERING'],
    ]) {
      assert.equal(await finished((await reprocess(id, service)).id), 'PREVIEW_READY');
    }
    await recent().getByRole('button', { name: 'Refresh' }).click();
    const pages = recent().getByRole('navigation', { name: 'Pagination' });
    await pages.waitFor();
    await page.waitForFunction(() => document.querySelectorAll('.recent-track').length === 4);
    await pages.getByRole('button', { name: 'Page 2' }).click();
    await page.waitForFunction(() => document.querySelectorAll('.recent-track').length === 1);
    assert.deepEqual(await cardNames(), ['Sabar groove.wav']);
    await pages.getByRole('button', { name: 'First' }).click();
    await page.waitForFunction(() => document.querySelectorAll('.recent-track').length === 4);

    await recent().getByLabel('Search by file name').fill('MBALAX');
    await page.waitForFunction(() => document.querySelectorAll('.recent-track').length === 2);
    assert.deepEqual(await cardNames(), ['Mbalax take.wav', 'Mbalax take.wav']);
    assert.equal(await pages.count(), 0);
    await recent().getByLabel('Search by file name').fill('zouk');
    await recent().getByText('No track matches “zouk”.').waitFor();
    await recent().getByLabel('Search by file name').fill('');
    await page.waitForFunction(() => document.querySelectorAll('.recent-track').length === 4);

    // Delete, after the confirmation.
    const deleted = page.waitForResponse((r) => r.request().method() === 'DELETE' && r.url().includes('/api/audio/'));
    await recent().getByRole('button', { name: 'Delete Mbalax take.wav' }).first().click();
    const dialog = page.getByRole('dialog', { name: 'Delete this track?' });
    await dialog.getByRole('button', { name: 'Delete' }).click();
    assert.equal((await deleted).status(), 200);
    await dialog.waitFor({ state: 'detached' });
    const { totalCount } = await api('/api/audio/tracks?limit=10');
    assert.equal(totalCount, 4);
    // Four a page: the count was already 4 before the list refetched, so wait for the pagination to go.
    await recent().getByRole('navigation', { name: 'Pagination' }).waitFor({ state: 'detached' });
    await page.waitForFunction(() => document.querySelectorAll('.recent-track').length === 4);
    assert.equal(await recent().getByRole('navigation', { name: 'Pagination' }).count(), 0);
  });

  test('the media library lists the uploads and starting a job from one creates a new track', async () => {
    await page.getByRole('button', { name: 'Media library' }).click();
    const dialog = page.getByRole('dialog', { name: 'Media library' });
    await dialog.locator('tbody tr').first().waitFor();
    // Copies of the same file collapse into the newest.
    const names = await dialog.locator('tbody tr td:first-child').allTextContents();
    assert.deepEqual([...names].sort(), ['Mbalax take.wav', 'Sabar groove.wav']);
    assert.equal(await dialog.getByRole('columnheader', { name: 'Date' }).getAttribute('aria-sort'), 'descending');
    assert.deepEqual(await seriousViolations(), []);

    const before = (await api('/api/audio/tracks?limit=10')).totalCount;
    const started = page.waitForResponse((r) => r.url().endsWith('/reprocess'));
    await dialog.getByRole('button', { name: 'Sabar groove.wav' }).click();
    const answer = await started;
    assert.equal(answer.status(), 201);
    const track = await answer.json();
    await dialog.waitFor({ state: 'detached' });
    assert.equal(track.service, 'AI_MASTERING');
    assert.equal(await finished(track.id), 'PREVIEW_READY');
    assert.equal((await api('/api/audio/tracks?limit=10')).totalCount, before + 1);
    // The new track is first in the list, marked as the one open.
    const first = recent().locator('.recent-track').first();
    await page.waitForFunction(
      () => document.querySelector('.recent-track')?.getAttribute('aria-current') === 'true',
      null,
      { timeout: 20_000 },
    );
    assert.equal(await first.locator('.recent-track__name').textContent(), 'Sabar groove.wav');
    await first.getByText('Preview Ready').waitFor();
  });

  test('fits 375 and 1280 px without horizontal overflow or serious axe violations, list and dialog alike', async () => {
    const problems = [];
    for (const width of [375, 1280]) {
      await page.setViewportSize({ width, height: 900 });
      await page.goto(`${server.baseUrl}/dashboard`);
      await page.locator('.recent-track').first().waitFor();
      if (width === 375) {
        assert.equal(await recent().getByRole('button', { name: 'List' }).count(), 0, 'no list view on a phone');
        // Five tracks: two pages, and on a phone no first and last buttons.
        const pages = recent().getByRole('navigation', { name: 'Pagination' });
        await pages.waitFor();
        assert.equal(await pages.getByRole('button', { name: 'First' }).count(), 0);
        assert.equal(await pages.getByRole('button', { name: 'Last' }).count(), 0);
      } else {
        await recent().getByRole('button', { name: 'List' }).click();
        await page.locator('.recent-tracks--list').waitFor();
      }
      const check = async (label) => {
        const extra = await overflow();
        if (extra > 0) problems.push(`${width}px ${label}: ${extra}px of horizontal overflow`);
        for (const violation of await seriousViolations()) problems.push(`${width}px ${label}: ${violation}`);
      };
      await check('list');
      await page.getByRole('button', { name: 'Media library' }).click();
      await page.getByRole('dialog', { name: 'Media library' }).locator('tbody tr').first().waitFor();
      await check('media library');
      await page.keyboard.press('Escape');
      await recent()
        .getByRole('button', { name: /^Delete / })
        .first()
        .click();
      await page.getByRole('dialog', { name: 'Delete this track?' }).waitFor();
      await check('delete confirmation');
      await page.keyboard.press('Escape');
    }
    assert.deepEqual(problems, []);
  });

  test('speaks French with no raw translation key', async () => {
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.locator('footer').getByLabel('Language').selectOption('fr');
    await recent().getByRole('heading', { name: 'Pistes récentes' }).waitFor();
    await recent().getByText('Aperçu prêt').first().waitFor();
    await page.getByRole('button', { name: 'Médiathèque' }).click();
    const dialog = page.getByRole('dialog', { name: 'Médiathèque' });
    await dialog.locator('tbody tr').first().waitFor();
    const text = await page.evaluate(() => document.body.innerText);
    assert.doesNotMatch(text, /\blibrary\.[a-zA-Z]/);
    assert.match(text, /Taille/);
    assert.match(text, /\d+,\d Mo/);
    await page.keyboard.press('Escape');
    await recent()
      .getByRole('button', { name: /^Supprimer / })
      .first()
      .click();
    await page.getByRole('dialog', { name: 'Supprimer cette piste\u202f?' }).waitFor();
    const confirmText = await page.evaluate(() => document.body.innerText);
    assert.doesNotMatch(confirmText, /\blibrary\.[a-zA-Z]/);
    await page.keyboard.press('Escape');
  });

  test('account settings on a phone: the active section is in view, the e-mail verified, the disabled button explained', async () => {
    await page.setViewportSize({ width: 375, height: 800 });
    await page.goto(`${server.baseUrl}/accountSettings?section=security`);
    await page.locator('#security-title').waitFor();
    const strip = page.getByRole('navigation', { name: 'Rubriques des paramètres' }).locator('ul');
    const visible = async (name) => {
      const [box, item] = await Promise.all([
        strip.boundingBox(),
        strip.getByRole('button', { name, exact: true }).boundingBox(),
      ]);
      return item.x >= box.x - 1 && item.x + item.width <= box.x + box.width + 1;
    };
    await page.waitForFunction(() => document.querySelector('.settings__nav').scrollLeft > 0);
    assert.equal(await visible('Sécurité'), true, 'the active section is scrolled into view');
    await strip.getByRole('button', { name: 'Général', exact: true }).click();
    await page.locator('form[data-ready]').waitFor();
    assert.equal(await visible('Général'), true);
    // Signed up through the e-mailed link: verified.
    await page.getByText('Vérifié', { exact: true }).first().waitFor();

    await strip.getByRole('button', { name: 'Sécurité', exact: true }).click();
    await page.getByRole('button', { name: 'Désactiver mon compte' }).click();
    const dialog = page.getByRole('dialog', { name: /^Désactiver votre compte/ });
    await dialog.waitFor();
    const confirm = dialog.getByRole('button', { name: 'Désactiver', exact: true });
    assert.equal(await confirm.isDisabled(), true);
    const hint = dialog.getByText('Veuillez taper DELETE pour confirmer');
    await hint.waitFor();
    assert.equal(await confirm.getAttribute('aria-describedby'), await hint.getAttribute('id'));
    await dialog.getByLabel('Tapez DELETE pour confirmer').fill('DELETE');
    assert.equal(await confirm.isDisabled(), false);
    assert.equal(await hint.count(), 0);
    await page.keyboard.press('Escape');
    assert.deepEqual(pageErrors, []);
  });
  test('a demo opens from the upload card: processed, unlocked, downloadable, and not in the recent list', async () => {
    // The page speaks French since the language test; the account's demos were provisioned at sign-up.
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto(`${server.baseUrl}/dashboard?service=AI_MASTERING`);
    const demo = page.getByRole('button', { name: 'Essayer la démo' });
    await demo.waitFor({ timeout: 120_000 });
    await page.waitForFunction(
      () => [...document.querySelectorAll('button')].some((b) => b.textContent === 'Essayer la démo' && !b.disabled),
      null,
      { timeout: 120_000 },
    );
    await demo.click();
    await page.waitForURL(/[?&]track=/);
    const id = new URL(page.url()).searchParams.get('track');
    const track = await api(`/api/audio/track/${id}`);
    assert.equal(track.isDemo, true);
    assert.equal(track.service, 'AI_MASTERING');
    await page.getByText('Votre résultat final est prêt.').waitFor({ timeout: 30_000 });
    await page.getByText('WAV 44,1 kHz / 16 bits').first().waitFor();
    const names = await recent().locator('.recent-track__name').allTextContents();
    assert.equal(names.includes(track.filename), false, 'demos are hidden from the recent list');
    assert.deepEqual(pageErrors, []);
  });
});
