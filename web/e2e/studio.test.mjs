/* global window, document, MutationObserver, getComputedStyle -- the functions given to page.evaluate run in the browser */
// The studio in Chromium: the real server, real audio made by ffmpeg, the built client. Run by `npm run test:browser`.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { chordWav, launchBrowser, signUpOnProvider, startServer, recordFailures, watch } from './support.mjs';

recordFailures('studio');

const require = createRequire(import.meta.url);
const AXE = await readFile(require.resolve('axe-core/axe.min.js'), 'utf8');

const PERSON = {
  firstName: 'Fatou',
  lastName: 'Ndiaye',
  email: `fatou.ndiaye.${Date.now()}@example.com`,
  password: 'Ndeye-Coumba-2026',
};

let server;
let browser;
let page;
let media;
let song;
let longSong;
let referenceSong;
let clip;
let firstTrackUrl;
const pageErrors = [];

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

const horizontalOverflow = () => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
const playingCount = () =>
  page.evaluate(() => [...document.querySelectorAll('audio, video')].filter((element) => !element.paused).length);

async function outbox() {
  return (await fetch(`${server.baseUrl}/dev/outbox`, { headers: { Accept: 'application/json' } })).json();
}

/** Chooses a file through the real file input and starts the upload. */
async function upload(path) {
  await page.locator('.dropzone input[type=file]').setInputFiles(path);
  await page.locator('.dropzone__file').waitFor();
  await page.getByRole('button', { name: 'Start', exact: true }).click();
}

/** A POST to the API with the signed-in page's token. */
const callApi = (path, body) =>
  page.evaluate(
    async ([url, payload]) => {
      const key = Object.keys(localStorage).find((name) => name.startsWith('oidc.user:'));
      const token = JSON.parse(localStorage.getItem(key)).access_token;
      const response = await fetch(url, {
        method: 'POST',
        headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
        body: JSON.stringify(payload),
      });
      return { status: response.status, body: await response.json() };
    },
    [path, body],
  );

/** Buys a pack through the PayPal sandbox by API (the payment screens have their own suite, payment.test.mjs). */
async function buyPack(planId) {
  const intent = await callApi('/api/payments/createIntent', {
    provider: 'PAYPAL',
    currency: 'USD',
    planId,
    billingCycle: 'MONTHLY',
    paymentType: 'PACK',
  });
  assert.equal(intent.status, 201);
  await fetch(`${server.baseUrl}/sandbox/paypal/orders/${intent.body.orderId}/approve`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: '{}',
  });
  assert.equal((await callApi(`/api/payments/paypal/capture/${intent.body.orderId}`, {})).status, 200);
}

describe('the studio in Chromium', { concurrency: false }, () => {
  before(async () => {
    media = await mkdtemp(join(tmpdir(), 'kora-studio-e2e-'));
    song = chordWav(join(media, 'sunu-gaal.wav'), 14);
    referenceSong = chordWav(join(media, 'their-hit.wav'), 8);
    clip = join(media, 'interview.mp4');
    execFileSync('ffmpeg', [
      ...['-hide_banner', '-loglevel', 'error', '-y'],
      ...['-f', 'lavfi', '-i', 'testsrc=size=320x240:rate=25:duration=6'],
      ...['-f', 'lavfi', '-i', 'sine=frequency=300:duration=6'],
      ...['-c:v', 'libx264', '-pix_fmt', 'yuv420p', '-c:a', 'aac', '-shortest', clip],
    ]);
    // Long enough to still be processing when aborted or reloaded, within mastering's 10 minutes (mono 22.05 kHz).
    longSong = chordWav(join(media, 'long-take.wav'), 9.5 * 60, { rate: 22050, channels: 1 });
    server = await startServer();
    browser = await launchBrowser();
    const context = watch(await browser.newContext({ locale: 'en-US', viewport: { width: 1280, height: 900 } }));
    page = await context.newPage();
    page.setDefaultTimeout(30_000);
    page.on('pageerror', (error) => pageErrors.push(error.message));
    await page.addInitScript(() => {
      // Remembers that the progress views showed, however briefly.
      new MutationObserver(() => {
        if (document.querySelector('.ring')) window.sessionStorage.setItem('sawRing', '1');
        if (document.querySelector('.processing')) window.sessionStorage.setItem('sawProcessing', '1');
      }).observe(document, { subtree: true, childList: true });
    });
  });

  after(async () => {
    await browser?.close();
    await server?.stop();
    if (media) await rm(media, { recursive: true, force: true });
  });

  test('signs up and lands on the dashboard with AI mastering chosen', async () => {
    await page.goto(`${server.baseUrl}/dashboard`);
    await page.waitForURL(/\/oidc\/interaction\//);
    await signUpOnProvider(page, server, PERSON);
    await page.waitForURL(`${server.baseUrl}/dashboard`);
    const mastering = page.getByRole('button', { name: /AI mastering/ });
    await mastering.waitFor();
    assert.equal(await mastering.getAttribute('aria-pressed'), 'true');
    assert.equal(await page.evaluate(() => localStorage.getItem('selectedService')), 'AI_MASTERING');
  });

  test('a WAV uploaded through the file input is processed and its result opens', async () => {
    await page.getByRole('button', { name: /AI mastering/ }).click();
    await page.getByRole('button', { name: 'Punchy' }).click();
    // A reference track to match: the loudness target switches to the reference's.
    await page.locator('.reference input[type=file]').setInputFiles(referenceSong);
    await page.getByText('their-hit.wav').waitFor();
    assert.equal(await page.getByRole('radio', { name: 'Match the reference track’s loudness' }).isChecked(), true);
    await upload(song);
    await page.waitForURL(/[?&]track=/);
    await page.locator('.result').waitFor({ timeout: 120_000 });
    assert.equal(await page.evaluate(() => window.sessionStorage.getItem('sawRing')), '1', 'the upload ring showed');
    assert.equal(await page.evaluate(() => window.sessionStorage.getItem('sawProcessing')), '1', 'processing showed');
    firstTrackUrl = page.url();
    await page.locator('.result').getByText('Preview ready').waitFor();
    await page.getByText('Matched to your reference track.').waitFor();
    // The engine's report: loudness and true peak before and after, in a table people can read.
    const report = page.locator('.report__table').first();
    await report.waitFor();
    assert.match(await report.innerText(), /Loudness \(integrated\)[\s\S]*LUFS[\s\S]*True peak[\s\S]*dBTP/);
    // Mastered against a reference: how far from it the original was and the master is, and their curves.
    await page.getByText(/^Distance to your reference: [\d.]+ dB → [\d.]+ dB\./).waitFor();
    await page.getByRole('img', { name: 'Tonal balance against your reference' }).waitFor();
    assert.ok((await page.locator('.chart svg').count()) >= 1, 'a curve or a spectrum is drawn');
  });

  test('players draw waveforms and exactly one plays at a time', async () => {
    await page.goto(firstTrackUrl);
    await page.locator('.result .player').first().waitFor();
    const players = page.locator('.player');
    assert.equal(await players.count(), 2, 'original and preview (the master is locked)');
    await page.locator('.player[data-state=ready]').nth(1).waitFor();
    assert.ok(
      (await page
        .locator('.player__wave')
        .first()
        .evaluate((el) => el.innerHTML.length)) > 0,
    );
    await page.getByRole('button', { name: 'Play Original' }).click();
    await page.waitForFunction(() => [...document.querySelectorAll('audio')].some((element) => !element.paused));
    assert.equal(await playingCount(), 1);
    await page.getByRole('button', { name: 'Play Preview' }).click();
    await page.getByRole('button', { name: 'Pause Preview' }).waitFor();
    assert.equal(await playingCount(), 1);
    await page.getByRole('button', { name: 'Play Original' }).waitFor();
  });

  test('the A/B switch keeps one player, at equal loudness, and says so', async () => {
    const ab = page.locator('.ab');
    await ab.getByRole('button', { name: 'Play', exact: true }).click();
    await ab.getByRole('button', { name: 'Pause', exact: true }).waitFor();
    assert.equal(await playingCount(), 1);
    assert.equal(await page.locator('audio[data-ab=result]').evaluate((element) => element.paused), false);
    await ab.getByRole('button', { name: 'Original', exact: true }).click();
    await page.waitForFunction(() => !document.querySelector('audio[data-ab=original]').paused);
    assert.equal(await playingCount(), 1);
    assert.match(await page.getByTestId('ab-note').innerText(), /^Level-matched/);
    const volumes = await page.evaluate(() =>
      ['original', 'result'].map((side) => document.querySelector(`audio[data-ab=${side}]`).volume),
    );
    assert.ok(Math.min(...volumes) < 1 && Math.max(...volumes) === 1, `one side turned down: ${volumes}`);
    await ab.getByRole('button', { name: 'Pause', exact: true }).click();
    assert.equal(await playingCount(), 0);
  });

  test('downloads say why they are locked and where to unlock', async () => {
    assert.match(await page.locator('.locked-reason').innerText(), /locked until this track is unlocked/);
    assert.equal(await page.getByRole('button', { name: 'WAV 44.1 kHz / 16-bit' }).isDisabled(), true);
    assert.equal(
      await page.getByRole('link', { name: 'See the plans' }).getAttribute('href'),
      '/accountSettings?section=plans&service=AI_MASTERING#plansSection',
    );
  });

  test('sends the result by e-mail; the mail reaches the outbox and the button says Sent for 3 s', async () => {
    const to = `studio.${Date.now()}@example.com`;
    const panel = page.locator('.email-panel');
    const send = panel.getByRole('button', { name: 'Send' });
    assert.equal(await send.isDisabled(), true, 'disabled while empty');
    await panel.getByRole('textbox').fill(to);
    await send.click();
    await panel.getByRole('button', { name: 'Sent' }).waitFor();
    const deadline = Date.now() + 10_000;
    let mail;
    while (!mail && Date.now() < deadline) {
      mail = (await outbox()).find((entry) => entry.to === to && entry.template === 'track-result');
      if (!mail) await new Promise((resolve) => setTimeout(resolve, 200));
    }
    assert.ok(mail, 'the result mail is in the outbox');
    await panel.getByRole('button', { name: 'Send' }).waitFor({ timeout: 5_000 });
  });

  test('fits 375 and 1280 px without horizontal overflow or serious axe violations', async () => {
    const problems = [];
    for (const width of [375, 1280]) {
      await page.setViewportSize({ width, height: 900 });
      await page.goto(firstTrackUrl);
      await page.locator('.player[data-state=ready]').nth(1).waitFor();
      const overflow = await horizontalOverflow();
      if (overflow > 0) problems.push(`${width}px result: ${overflow}px of overflow`);
      for (const violation of await seriousViolations()) problems.push(`${width}px result: ${violation}`);
      await page.getByRole('button', { name: 'New upload' }).click();
      await page.locator('.dropzone').waitFor();
      const columns = await page
        .locator('.services')
        .evaluate((element) => getComputedStyle(element).gridTemplateColumns.split(' ').length);
      if (width === 375 && columns !== 2) problems.push(`375px: the services take ${columns} columns, not 2`);
      const uploadOverflow = await horizontalOverflow();
      if (uploadOverflow > 0) problems.push(`${width}px upload: ${uploadOverflow}px of overflow`);
      for (const violation of await seriousViolations()) problems.push(`${width}px upload: ${violation}`);
    }
    // The light theme on a phone.
    await page.evaluate(() => localStorage.setItem('theme', 'light'));
    await page.setViewportSize({ width: 375, height: 900 });
    await page.goto(firstTrackUrl);
    await page.locator('.player[data-state=ready]').nth(1).waitFor();
    for (const violation of await seriousViolations()) problems.push(`light 375px result: ${violation}`);
    await page.evaluate(() => localStorage.setItem('theme', 'dark'));
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto(`${server.baseUrl}/dashboard`);
    await page.locator('.dropzone').waitFor();
    assert.deepEqual(problems, []);
  });

  test('at 375 px the bell and the user menu open inside the screen', async () => {
    await page.setViewportSize({ width: 375, height: 800 });
    const inside = async (selector) => {
      const box = await page.locator(selector).boundingBox();
      const { width } = page.viewportSize();
      assert.ok(box, `${selector} is shown`);
      assert.ok(box.x >= 0 && box.x + box.width <= width, `${selector} spans ${box.x} to ${box.x + box.width}`);
    };
    await page.getByRole('button', { name: /^Notifications/ }).click();
    await inside('.bell__panel');
    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: 'Account menu' }).click();
    await inside('.user-menu__panel');
    await page.keyboard.press('Escape');
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.getByRole('button', { name: /^Notifications/ }).click();
    await inside('.bell__panel');
    await page.keyboard.press('Escape');
  });

  test('a reload in the middle of processing picks the job up again', async () => {
    await upload(longSong);
    await page.locator('.processing').waitFor({ timeout: 60_000 });
    const url = page.url();
    assert.match(url, /[?&]track=/);
    await page.reload();
    await page.locator('.processing').waitFor();
    assert.equal(page.url(), url);
    assert.equal(await page.locator('.steps__item').count(), 7, 'the mastering steps');
    // The service cannot change while a job runs.
    assert.equal(await page.getByRole('button', { name: /Stem separation/ }).isDisabled(), true);
  });

  test('aborting asks first (No keeps going, Yes stops) and returns to the upload card', async () => {
    await page.getByRole('button', { name: 'Abort' }).click();
    await page.getByRole('dialog').waitFor();
    await page.getByRole('button', { name: 'No', exact: true }).click();
    assert.equal(await page.getByRole('dialog').count(), 0);
    assert.equal(await page.locator('.processing').count(), 1);
    await page.getByRole('button', { name: 'Abort' }).click();
    const cancelled = page.waitForResponse((r) => /\/cancel$/.test(r.url()) && r.request().method() === 'POST');
    await page.getByRole('button', { name: 'Yes', exact: true }).click();
    assert.equal((await cancelled).status(), 200);
    await page.locator('.dropzone').waitFor();
    assert.doesNotMatch(page.url(), /track=/);
    assert.equal(await page.getByRole('button', { name: /Stem separation/ }).isDisabled(), false);
  });

  test('without a pack, enhancement and stem separation offer the plans instead of the file picker', async () => {
    for (const [name, service] of [
      [/Audio enhancement/, 'AUDIO_ENHANCEMENT'],
      [/Stem separation/, 'STEM_SEPARATION'],
    ]) {
      await page.getByRole('button', { name }).click();
      const subscribe = page.locator('.dropzone').getByRole('link', { name: 'Subscribe to a pack' });
      assert.equal(
        await subscribe.getAttribute('href'),
        `/accountSettings?section=plans&service=${service}#plansSection`,
      );
      assert.equal(await page.locator('.dropzone input[type=file]').count(), 0);
      // The demo stays open to try the service.
      await page.locator('.demo-button').waitFor();
    }
    await buyPack('enhancement-starter');
    await buyPack('stems-starter');
    // The card follows the credits live (the header's counts too, one per service).
    await page.locator('.plan-status__credits').getByText('Enhancement: 5 credits').waitFor({ timeout: 15_000 });
    await page.locator('.plan-status__credits').getByText('Stems: 5 credits').waitFor({ timeout: 15_000 });
    await page.locator('.dropzone input[type=file]').waitFor({ state: 'attached' });
  });

  test('enhancement and stem separation go through the same work area to their own results', async () => {
    await page.getByRole('button', { name: /Audio enhancement/ }).click();
    assert.equal(await page.evaluate(() => localStorage.getItem('selectedService')), 'AUDIO_ENHANCEMENT');
    await page.getByRole('button', { name: 'Audio', exact: true }).click();
    await upload(song);
    await page.locator('.result').waitFor({ timeout: 120_000 });
    await page.locator('.player[data-state=ready]').nth(1).waitFor();
    assert.deepEqual(await page.locator('.player__label').allInnerTexts(), ['Original', 'Preview']);
    await page.locator('.ab').getByRole('button', { name: 'Enhanced' }).waitFor();
    await page.locator('.report__table').waitFor();

    // The video preset: an MP4 with sound opens the video player, its downloads locked the same way.
    await page.getByRole('button', { name: 'New upload' }).click();
    await page.getByRole('button', { name: 'Video', exact: true }).click();
    await upload(clip);
    await page.locator('.video-result').waitFor({ timeout: 120_000 });
    await page.locator('.locked-reason').waitFor();

    await page.getByRole('button', { name: /Stem separation/ }).click();
    await page.getByRole('button', { name: 'Vocals', exact: true }).click();
    await upload(song);
    await page.locator('.processing').waitFor({ timeout: 60_000 });
    assert.equal(await page.locator('.steps__item').count(), 4, 'the stem separation steps');
    await page.locator('.stems-board').waitFor({ timeout: 180_000 });
    await page.locator('.email-panel').waitFor();
  });

  test('once unlocked with a credit, the master plays and both WAV masters download', async () => {
    await buyPack('mastering-starter');
    const trackId = new URL(firstTrackUrl).searchParams.get('track');
    assert.equal((await callApi(`/api/audio/track/${trackId}/master`, { credit: true })).status, 200);

    await page.goto(firstTrackUrl);
    await page.getByText('Your final result is ready.').waitFor();
    await page.locator('.player[data-state=ready]').nth(2).waitFor();
    assert.deepEqual(await page.locator('.player__label').allInnerTexts(), ['Original', 'Preview', 'Mastered']);
    await page.getByRole('button', { name: 'Play Mastered' }).click();
    await page.getByRole('button', { name: 'Pause Mastered' }).waitFor();
    assert.equal(await playingCount(), 1);
    await page.getByRole('button', { name: 'Pause Mastered' }).click();
    assert.equal(await page.locator('.locked-reason').count(), 0);

    for (const [name, filename, rate] of [
      ['WAV 44.1 kHz / 16-bit', 'sunu-gaal_master_44k.wav', 44100],
      ['WAV 48 kHz / 24-bit', 'sunu-gaal_master_48k.wav', 48000],
    ]) {
      const download = page.waitForEvent('download');
      await page.getByRole('button', { name }).click();
      const file = await download;
      assert.equal(file.suggestedFilename(), filename);
      const bytes = await readFile(await file.path());
      assert.equal(bytes.subarray(0, 4).toString('ascii'), 'RIFF');
      assert.equal(bytes.subarray(8, 12).toString('ascii'), 'WAVE');
      assert.equal(bytes.readUInt32LE(24), rate, `${filename} is at ${rate} Hz`);
    }
  });

  test('in French, the result shows no raw translation key', async () => {
    await page.evaluate(() => localStorage.setItem('language', 'fr'));
    await page.goto(firstTrackUrl);
    await page.getByText('Comparer avant et après').waitFor();
    await page.locator('.player[data-state=ready]').nth(1).waitFor();
    const text = await page.locator('main').innerText();
    assert.doesNotMatch(text, /\b(studio|stems|services|dashboard):/);
    assert.doesNotMatch(text, /\b(upload|processing|report|downloads|email|result|ab|player|steps)\.[a-zA-Z]+/);
    await page.getByRole('button', { name: 'Nouvel envoi' }).click();
    const upload = await page.locator('.upload-card').innerText();
    assert.doesNotMatch(upload, /\b(upload|intensities|targets)\.[a-zA-Z]+/);
    assert.match(upload, /Intensité du mastering/);
    assert.deepEqual(pageErrors, []);
  });
});
