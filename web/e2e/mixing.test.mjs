/* global window, document -- the functions given to page.evaluate run in the browser */
// The mixing studio in Chromium: the real server and mixer, WAVs made by ffmpeg, the built client.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { launchBrowser, signUpOnProvider, startServer, recordFailures, watch } from './support.mjs';
import { outputLevel, tapAudioOutput } from './audioOutput.mjs';

recordFailures('mixing');

const require = createRequire(import.meta.url);
const AXE = await readFile(require.resolve('axe-core/axe.min.js'), 'utf8');

const PERSON = {
  firstName: 'Moussa',
  lastName: 'Traoré',
  email: `moussa.traore.${Date.now()}@example.com`,
  password: 'Bamako-Studio-2026',
};

let server;
let browser;
let page;
let media;
let files;
let sessionUrl;
const pageErrors = [];

/** A WAV made by ffmpeg: `seconds` of a tone at `frequency`, pulsed. */
function wav(path, seconds, frequency) {
  execFileSync('ffmpeg', [
    ...['-hide_banner', '-loglevel', 'error', '-y'],
    ...['-f', 'lavfi', '-i', `sine=frequency=${frequency}:duration=${seconds}`],
    ...['-af', 'volume=0.5,apulsator=hz=2', '-ac', '2', '-ar', '44100', '-c:a', 'pcm_s16le', path],
  ]);
  return path;
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

const horizontalOverflow = () => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);

/** A JSON POST with the signed-in user's token, from the page. */
const call = (path, body) =>
  page.evaluate(
    async ([url, payload]) => {
      const key = Object.keys(localStorage).find((name) => name.startsWith('oidc.user:'));
      const token = JSON.parse(localStorage.getItem(key)).access_token;
      const response = await fetch(
        url,
        payload === undefined
          ? { headers: { Authorization: `Bearer ${token}` } }
          : {
              method: 'POST',
              headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
              body: JSON.stringify(payload),
            },
      );
      return { status: response.status, body: await response.json() };
    },
    [path, body],
  );

const pressed = (name) => page.getByRole('button', { name, exact: true }).getAttribute('aria-pressed');

describe('the mixing studio in Chromium', { concurrency: false }, () => {
  before(async () => {
    media = await mkdtemp(join(tmpdir(), 'kora-mixing-e2e-'));
    files = {
      kick: wav(join(media, 'Kick 808.wav'), 8, 60),
      vocal: wav(join(media, 'lead vocal.wav'), 8, 440),
      bass: wav(join(media, 'bass line.wav'), 8, 110),
      mp3: join(media, 'demo.mp3'),
    };
    execFileSync('ffmpeg', [
      ...['-hide_banner', '-loglevel', 'error', '-y', '-f', 'lavfi', '-i', 'sine=frequency=300:duration=3'],
      files.mp3,
    ]);
    server = await startServer();
    browser = await launchBrowser();
    const context = watch(
      await browser.newContext({
        locale: 'en-US',
        viewport: { width: 1280, height: 900 },
        acceptDownloads: true,
      }),
    );
    page = await context.newPage();
    // What the board sends to the speakers is read where it leaves (audioOutput.mjs).
    await tapAudioOutput(page);
    page.setDefaultTimeout(30_000);
    page.on('pageerror', (error) => pageErrors.push(error.message));
  });

  after(async () => {
    await browser?.close();
    await server?.stop();
    if (media) await rm(media, { recursive: true, force: true });
  });

  test('the picker keeps AI mixing coming soon, and its link opens the mixing studio', async () => {
    await page.goto(`${server.baseUrl}/dashboard`);
    await page.waitForURL(/\/oidc\/interaction\//);
    await signUpOnProvider(page, server, PERSON);
    await page.waitForURL(`${server.baseUrl}/dashboard`);
    const card = page.getByRole('button', { name: /AI mixing/ });
    await card.waitFor();
    assert.equal(await card.isDisabled(), true, 'not selectable');
    await page.getByRole('link', { name: 'Try the mixing studio (preview)' }).click();
    await page.waitForURL(/service=AI_MIXING/);
    await page.getByLabel('Mix name').waitFor();
    assert.equal(await page.getByLabel('Mix name').inputValue(), 'My Mix');
    assert.equal(await page.getByRole('button', { name: 'Single track' }).isDisabled(), true);
  });

  test('checks the name, the count and the format before anything is sent', async () => {
    await page.getByLabel('Mix name').fill('');
    await page.getByRole('button', { name: 'Start mixing' }).click();
    await page.getByText('Give your mix a name.').waitFor();
    await page.getByText('Add at least 2 files to make a mix.').waitFor();
    await page.getByLabel('Mix name').fill('Bamako nights');
    assert.equal(await page.getByText('Give your mix a name.').count(), 0, 'clears on typing');

    await page.locator('.dropzone input[type=file]').setInputFiles([files.kick, files.mp3]);
    await page.getByText('Mixing takes WAV files only.').waitFor();
    await page.getByText('1 of 5 files').waitFor();
    await page.locator('.dropzone input[type=file]').setInputFiles([files.vocal, files.bass]);
    await page.getByText('3 of 5 files').waitFor();
    // The groups are guessed from the names.
    const groups = await page
      .locator('.mix-settings__track')
      .evaluateAll((rows) => rows.map((row) => [row.getAttribute('data-track'), row.querySelector('select').value]));
    assert.deepEqual(groups, [
      ['Kick 808.wav', 'kick'],
      ['lead vocal.wav', 'vocal'],
      ['bass line.wav', 'bass'],
    ]);
    assert.equal(await page.getByLabel('Musical style').inputValue(), 'POP');
    assert.equal(await page.getByLabel('Sample rate').inputValue(), '44100');
    await page.locator('[data-track="lead vocal.wav"]').getByLabel('Presence').selectOption('LEAD');
    await page.locator('[data-track="bass line.wav"]').getByLabel('Pan').selectOption('LEFT');

    for (const width of [375, 1280]) {
      await page.setViewportSize({ width, height: 900 });
      assert.ok((await horizontalOverflow()) <= 0, `no horizontal overflow at ${width} px`);
    }
    assert.deepEqual(await seriousViolations(), []);
  });

  test('three files go up with their settings, the mix is made, and the preview board opens', async () => {
    await page.getByRole('button', { name: 'Start mixing' }).click();
    await page.waitForURL(/[?&]mix=/);
    sessionUrl = page.url();
    await page.getByRole('heading', { name: 'Preview Mix: Bamako nights' }).waitFor({ timeout: 120_000 });
    const rows = page.locator('.mix-row');
    await page.locator('.mix-row .stem-waveform').nth(3).waitFor();
    assert.deepEqual(
      await rows.evaluateAll((items) => items.map((item) => item.getAttribute('data-row') === 'final')),
      [true, false, false, false],
    );
    assert.match(await rows.first().innerText(), /FINAL MIX/);
    assert.deepEqual(await page.locator('.mix-row .stem-row__name').allInnerTexts(), [
      'FINAL MIX',
      'Kick 808.wav',
      'lead vocal.wav',
      'bass line.wav',
    ]);
    // The settings were sent with the files.
    const session = await page.evaluate(async (url) => {
      const id = new URL(url).searchParams.get('mix');
      const key = Object.keys(localStorage).find((name) => name.startsWith('oidc.user:'));
      const token = JSON.parse(localStorage.getItem(key)).access_token;
      return (await fetch(`/api/mixing/sessions/${id}`, { headers: { Authorization: `Bearer ${token}` } })).json();
    }, sessionUrl);
    assert.deepEqual(
      session.session.tracks.map((t) => [t.instrumentGroup, t.presenceSetting, t.panPreference]),
      [
        ['kick', 'NORMAL', 'NO_PREFERENCE'],
        ['vocal', 'LEAD', 'NO_PREFERENCE'],
        ['bass', 'NORMAL', 'LEFT'],
      ],
    );

    // What the mixer did for the bass: it was asked to go left.
    const bass = page.locator('.mix-row', { hasText: 'bass line.wav' });
    await bass.getByText('What the mixer did').click();
    await bass.getByText(/% left/).waitFor();
    assert.match(await bass.locator('.mix-report').innerText(), /Gain[\s\S]*dB[\s\S]*EQ[\s\S]*Compression/);

    // Mute and solo by the spec's rules.
    await page.getByRole('button', { name: 'Solo lead vocal.wav' }).click();
    assert.equal(await pressed('Mute Kick 808.wav'), 'true');
    assert.equal(await pressed('Mute lead vocal.wav'), 'false');
    await page.getByRole('button', { name: 'Solo lead vocal.wav' }).click();
    assert.equal(await pressed('Mute bass line.wav'), 'false');
    // The final mix is the reference, not a channel of the sum: no mute or solo of its own.
    assert.equal(await page.getByRole('button', { name: 'Mute FINAL MIX', exact: true }).count(), 0);
    await page.getByRole('button', { name: 'Mute Kick 808.wav' }).click();
    assert.equal(await pressed('Mute Kick 808.wav'), 'true');

    // Play moves the clock; a row plays alone; reset brings it back.
    await page.getByRole('button', { name: 'Play', exact: true }).click();
    await page.waitForFunction(() => {
      const time = document.querySelector('.stems-board__time')?.textContent ?? '';
      return !time.startsWith('0:00 /');
    });
    await page.getByRole('button', { name: 'Pause', exact: true }).click();
    await page.getByRole('button', { name: 'Play FINAL MIX alone' }).click();
    await page.getByRole('button', { name: 'Pause FINAL MIX' }).click();
    await page.getByRole('button', { name: 'Reset' }).click();
    assert.equal(await pressed('Mute Kick 808.wav'), 'false');
    assert.match(await page.locator('.stems-board__time').innerText(), /^0:00 \//);

    // What Play sends out: the audible tracks (kick 60 Hz, vocal 440 Hz, bass 110 Hz) summed, never the final mix
    // under them (it holds every track, so a muted one would still be heard); the final mix is the A/B choice.
    const listen = page.getByRole('group', { name: 'Listen to' });
    const settled = async () => {
      await page.waitForTimeout(1000);
      return outputLevel(page, [60, 110, 440]);
    };
    await page.getByRole('button', { name: 'Mute Kick 808.wav' }).click();
    await page.getByRole('button', { name: 'Mute bass line.wav' }).click();
    await page.getByRole('button', { name: 'Play', exact: true }).click();
    const vocal = await settled();
    // The tones are quiet and pulsed (-47 dB or so at their FFT bin); a track left in is within 20 dB of the vocal.
    assert.ok(vocal.peakDb[440] > -60, `the vocal heard: ${JSON.stringify(vocal.peakDb)}`);
    for (const hz of [60, 110]) {
      assert.ok(vocal.peakDb[hz] < vocal.peakDb[440] - 40, `only the vocal: ${JSON.stringify(vocal.peakDb)}`);
    }
    await page.getByRole('button', { name: 'Mute lead vocal.wav' }).click();
    const none = await settled();
    assert.ok(none.rmsDb < -90, `every track muted, silence: ${none.rmsDb} dBFS`);
    assert.equal(await listen.getByRole('button', { name: 'Tracks' }).getAttribute('aria-pressed'), 'true');
    await listen.getByRole('button', { name: 'Final mix' }).click();
    const final = await settled();
    assert.ok(final.rmsDb > -40 && final.peakDb[440] > -60, `the final mix alone: ${JSON.stringify(final)}`);
    await page.getByRole('button', { name: 'Pause', exact: true }).click();
    await page.getByRole('button', { name: 'Reset' }).click();
    assert.equal(await listen.getByRole('button', { name: 'Tracks' }).getAttribute('aria-pressed'), 'true');
    assert.equal(await pressed('Mute lead vocal.wav'), 'false');

    const download = page.getByRole('button', { name: 'Download All' });
    assert.equal(await download.isDisabled(), true);
    assert.match(await page.locator('.stems-board__notice').first().innerText(), /Unlock it/);

    for (const width of [375, 1280]) {
      await page.setViewportSize({ width, height: 900 });
      assert.ok((await horizontalOverflow()) <= 0, `no horizontal overflow at ${width} px`);
    }
    assert.deepEqual(await seriousViolations(), []);
  });

  test('once paid for, the board shows the final mix and Download All saves it', async () => {
    const sessionId = new URL(sessionUrl).searchParams.get('mix');
    // Paid for on the locked board: one mix through the PayPal sandbox's approval page, in a popup.
    await page.goto(sessionUrl);
    await page.getByRole('heading', { name: 'Preview Mix: Bamako nights' }).waitFor();
    await page.locator('.payment-options').getByRole('button', { name: 'Pay for this mix' }).click();
    const panel = page.getByRole('dialog', { name: 'Pay for this track' });
    const popupOpened = page.waitForEvent('popup');
    await panel.getByRole('button', { name: /^Pay \$[\d.]+ with PayPal or a card$/ }).click();
    const popup = await popupOpened;
    const closed = popup.waitForEvent('close', { timeout: 15_000 });
    await popup.getByRole('button', { name: 'Approve', exact: true }).click({ noWaitAfter: true });
    await closed;
    await page.getByRole('heading', { name: 'Final Mix: Bamako nights' }).waitFor({ timeout: 60_000 });
    const session = await call(`/api/mixing/sessions/${sessionId}`);
    assert.equal(session.body.session.unlocked, true);

    await page.goto(sessionUrl);
    await page.getByRole('heading', { name: 'Final Mix: Bamako nights' }).waitFor();
    await page.locator('.mix-row .stem-waveform').nth(3).waitFor();
    const button = page.getByRole('button', { name: 'Download All' });
    assert.equal(await button.isDisabled(), false);
    const saved = page.waitForEvent('download');
    await button.click();
    const file = await saved;
    assert.equal(file.suggestedFilename(), 'Bamako nights_mix.zip');
    const bytes = await readFile(await file.path());
    assert.equal(bytes.subarray(0, 2).toString('ascii'), 'PK');
    const JSZip = require('jszip');
    const zip = await JSZip.loadAsync(bytes);
    const names = Object.keys(zip.files).sort();
    assert.deepEqual(names, [
      'Bamako nights_Kick 808.wav',
      'Bamako nights_bass line.wav',
      'Bamako nights_lead vocal.wav',
      'Bamako nights_mix.wav',
    ]);
    const mix = await zip.file('Bamako nights_mix.wav').async('nodebuffer');
    assert.equal(mix.subarray(0, 4).toString('ascii'), 'RIFF');
    assert.equal(mix.subarray(8, 12).toString('ascii'), 'WAVE');
    assert.ok(mix.length > 8 * 44100 * 2 * 2, 'the full mix, not the 30 s preview');
  });

  test('changing a setting and mixing again makes a new mix', async () => {
    await page.locator('[data-track="Kick 808.wav"]').getByLabel('Reverb').selectOption('HIGH');
    await page.getByText('Your settings have changed').waitFor();
    await page.getByRole('button', { name: 'Mix again' }).click();
    // The previous board stays until the new mix is asked for; then the progress, then the new board.
    await page.getByText('Your settings have changed').waitFor({ state: 'detached' });
    await page.getByRole('heading', { name: /Mix: Bamako nights/ }).waitFor({ timeout: 120_000 });
    await page.locator('.mix-row .stem-waveform').nth(3).waitFor();
    const kick = page.locator('.mix-row', { hasText: 'Kick 808.wav' });
    await kick.getByText('What the mixer did').click();
    assert.match(await kick.locator('.mix-report').innerText(), /Reverb\s*Send at/);
  });

  test('in French, the studio shows no raw translation key', async () => {
    await page.evaluate(() => localStorage.setItem('language', 'fr'));
    await page.goto(sessionUrl);
    await page.getByRole('heading', { name: /Mix final : Bamako nights|Aperçu du mix : Bamako nights/ }).waitFor();
    const text = await page.locator('main').innerText();
    assert.doesNotMatch(text, /\b(mixing|studio|services|dashboard):/);
    assert.doesNotMatch(
      text,
      /\b(setup|problems|settings|style|group|presence|pan|reverb|session|progress|steps|board|row|report|errors)\.[a-zA-Z]+/,
    );
    assert.match(text, /MIX FINAL/);
    await page.getByRole('button', { name: 'Nouveau mix' }).click();
    await page.getByLabel('Nom du mix').waitFor();
    const setup = await page.locator('.mix-setup').innerText();
    assert.doesNotMatch(setup, /\b(setup|problems|settings)\.[a-zA-Z]+/);
    assert.match(setup, /0 fichier\(s\) sur 5/);
    assert.deepEqual(pageErrors, []);
  });
});
