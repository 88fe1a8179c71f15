/* global window, document -- the functions given to page.evaluate run in the browser */
// The stems board and the video result in Chromium, on real files made by ffmpeg.
// 1. The components alone, in a small page built from `web/src/features/studio/test/harness` and served with
//    the media by a plain HTTP server: Web Audio decoding and its clock, wavesurfer drawing, the zip of "download all",
//    the video element.
// 2. The studio on the real server: a stem separation uploaded, separated, opened on the board with its previews,
//    then unlocked by a (sandbox) PayPal payment and downloaded as one zip of the full stems; a mode button then
//    separates the same upload in another mode (once a pack gives credits) and the first mode opens again.
// Run after building the server and the client:
//   node scripts/build-server.mjs --quiet && npm run build -w web && node --test --test-concurrency=1 web/e2e/stems.test.mjs
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { extname, join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { promisify } from 'node:util';
import { build } from 'vite';
import react from '@vitejs/plugin-react';
import JSZip from 'jszip';
import { launchBrowser, ROOT, signUpOnProvider, startServer, recordFailures, watch } from './support.mjs';
import { outputLevel, tapAudioOutput } from './audioOutput.mjs';

recordFailures('stems');

const run = promisify(execFile);
const require = createRequire(import.meta.url);
const AXE = await readFile(require.resolve('axe-core/axe.min.js'), 'utf8');
const HARNESS = join(ROOT, 'web/src/features/studio/test/harness');
const SECONDS = 8;
const PREVIEW_SECONDS = 3;
/** Each stem a different tone, the original their mix (what a separation gives back, in spirit). */
const STEMS = { vocals: 'sine=frequency=660', drums: 'sine=frequency=110', bass: 'sine=frequency=55' };
/**
 * Known test signals for what the board plays: each stem one sine (frequency, peak amplitude), none a harmonic of
 * another, and the original their exact sum, as a perfect separation would give back.
 */
const SIGNALS = {
  vocals: { hz: 660, amplitude: 0.4 },
  drums: { hz: 170, amplitude: 0.2 },
  bass: { hz: 90, amplitude: 0.3 },
};
const SIGNAL_SECONDS = 20;
const TYPES = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css', '.json': 'application/json' };
const MEDIA_TYPES = { '.wav': 'audio/wav', '.mp3': 'audio/mpeg', '.mp4': 'video/mp4' };

let work;
let server;
let baseUrl;
let browser;
let page;
const pageErrors = [];

async function ffmpeg(args) {
  await run('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-y', ...args]);
}

/** A mono 16-bit WAV at 44.1 kHz of `seconds` of the sum of the given sines. */
function sinesWav(tones, seconds) {
  const rate = 44_100;
  const count = Math.round(seconds * rate);
  const wav = Buffer.alloc(44 + count * 2);
  wav.write('RIFF', 0, 'latin1');
  wav.writeUInt32LE(36 + count * 2, 4);
  wav.write('WAVEfmt ', 8, 'latin1');
  wav.writeUInt32LE(16, 16);
  wav.writeUInt16LE(1, 20);
  wav.writeUInt16LE(1, 22);
  wav.writeUInt32LE(rate, 24);
  wav.writeUInt32LE(rate * 2, 28);
  wav.writeUInt16LE(2, 32);
  wav.writeUInt16LE(16, 34);
  wav.write('data', 36, 'latin1');
  wav.writeUInt32LE(count * 2, 40);
  for (let i = 0; i < count; i += 1) {
    let value = 0;
    for (const { hz, amplitude } of tones) value += amplitude * Math.sin((2 * Math.PI * hz * i) / rate);
    wav.writeInt16LE(Math.round(value * 32767), 44 + i * 2);
  }
  return wav;
}

/** The RMS in dBFS of a sum of sines of different frequencies: their energies add (A²/2 each). */
const sinesDb = (tones) => 10 * Math.log10(tones.reduce((sum, { amplitude }) => sum + amplitude ** 2 / 2, 0));

/** The stems, the original, their 3 s MP3 previews and two short videos with sound. */
async function makeMedia(dir) {
  for (const [stem, source] of Object.entries(STEMS)) {
    await ffmpeg([
      '-f',
      'lavfi',
      '-i',
      `${source}:duration=${SECONDS}:sample_rate=44100`,
      '-ac',
      '2',
      join(dir, `${stem}.wav`),
    ]);
  }
  await ffmpeg([
    '-f',
    'lavfi',
    '-i',
    `anoisesrc=color=pink:amplitude=0.1:duration=${SECONDS}:sample_rate=44100`,
    '-ac',
    '2',
    join(dir, 'other.wav'),
  ]);
  const inputs = ['vocals', 'drums', 'bass', 'other'].flatMap((stem) => ['-i', join(dir, `${stem}.wav`)]);
  await ffmpeg([...inputs, '-filter_complex', 'amix=inputs=4', join(dir, 'original.wav')]);
  for (const stem of ['vocals', 'drums', 'bass', 'other', 'original']) {
    await ffmpeg([
      '-i',
      join(dir, `${stem}.wav`),
      '-t',
      String(PREVIEW_SECONDS),
      '-c:a',
      'libmp3lame',
      '-b:a',
      '128k',
      join(dir, `${stem}-preview.mp3`),
    ]);
  }
  for (const [name, tone] of [
    ['preview', 440],
    ['original', 330],
  ]) {
    await ffmpeg([
      '-f',
      'lavfi',
      '-i',
      'testsrc2=size=320x180:rate=25:duration=10',
      '-f',
      'lavfi',
      '-i',
      `sine=frequency=${tone}:duration=10`,
      '-c:v',
      'libx264',
      '-preset',
      'veryfast',
      '-pix_fmt',
      'yuv420p',
      '-c:a',
      'aac',
      '-shortest',
      '-movflags',
      '+faststart',
      join(dir, `${name}.mp4`),
    ]);
  }
  for (const [stem, tone] of Object.entries(SIGNALS)) {
    await writeFile(join(dir, `signal-${stem}.wav`), sinesWav([tone], SIGNAL_SECONDS));
  }
  await writeFile(join(dir, 'signal-original.wav'), sinesWav(Object.values(SIGNALS), SIGNAL_SECONDS));
}

const CONFIG = {
  boards: [
    {
      trackId: 'locked',
      filename: '<b>Ndanane</b> live.wav',
      mode: 'full',
      locked: true,
      stems: {
        other: '/media/other-preview.mp3',
        bass: '/media/bass-preview.mp3',
        vocals: '/media/vocals-preview.mp3',
        drums: '/media/drums-preview.mp3',
        original: '/media/original-preview.mp3',
      },
      originalUrl: '/media/original.wav',
    },
    {
      trackId: 'unlocked',
      filename: 'Ndanane live.wav',
      mode: 'full',
      locked: false,
      stems: {
        other: '/media/other.wav',
        bass: '/media/bass.wav',
        vocals: '/media/vocals.wav',
        drums: '/media/drums.wav',
        original: '/media/original.wav',
      },
      originalUrl: '/media/original.wav',
    },
  ],
  video: { previewUrl: '/media/preview.mp4', originalUrl: '/media/original.mp4' },
};

/** The page of the test of what the board plays (`/?signals`): one board of the known test signals, nothing else. */
const SIGNAL_CONFIG = {
  boards: [
    {
      trackId: 'signals',
      filename: 'Test signals.wav',
      mode: 'full',
      locked: false,
      stems: {
        ...Object.fromEntries(Object.keys(SIGNALS).map((stem) => [stem, `/media/signal-${stem}.wav`])),
        original: '/media/signal-original.wav',
      },
      originalUrl: '/media/signal-original.wav',
    },
  ],
};

function serve(siteDir, mediaDir) {
  return createServer(async (request, response) => {
    const url = new URL(request.url, 'http://x');
    const path = decodeURIComponent(url.pathname);
    try {
      if (path === '/config.json') {
        const config = url.searchParams.has('signals') ? SIGNAL_CONFIG : CONFIG;
        response.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify(config));
        return;
      }
      if (path.includes('..')) throw new Error('bad path');
      const media = path.startsWith('/media/');
      const file = media
        ? join(mediaDir, path.slice('/media/'.length))
        : join(siteDir, path === '/' ? 'index.html' : path);
      const body = await readFile(file);
      const type = (media ? MEDIA_TYPES : TYPES)[extname(file)] ?? 'application/octet-stream';
      response.writeHead(200, { 'Content-Type': type, 'Content-Length': body.length }).end(body);
    } catch {
      response.writeHead(404).end();
    }
  });
}

const board = (id) => page.locator(`section[aria-labelledby="stems-${id}-title"]`);
const timeOf = async (id) => (await board(id).locator('.stems-board__time').textContent()).split(' / ')[0];
const seconds = (text) => {
  const [m, s] = text.split(':').map(Number);
  return m * 60 + s;
};

describe('the stems board and the video result in Chromium', { concurrency: false }, () => {
  before(async () => {
    work = await mkdtemp(join(tmpdir(), 'kora-stems-e2e-'));
    const site = join(work, 'site');
    const media = join(work, 'media');
    await mkdir(site);
    await mkdir(media);
    await makeMedia(media);
    await build({
      root: HARNESS,
      configFile: false,
      logLevel: 'warn',
      plugins: [react()],
      build: { outDir: site, emptyOutDir: true, target: 'es2022', reportCompressedSize: false },
    });
    server = serve(site, media);
    await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
    baseUrl = `http://127.0.0.1:${server.address().port}`;
    browser = await launchBrowser();
    const context = watch(
      await browser.newContext({
        locale: 'en-US',
        viewport: { width: 1280, height: 900 },
        acceptDownloads: true,
      }),
    );
    page = await context.newPage();
    page.setDefaultTimeout(20_000);
    page.on('pageerror', (error) => pageErrors.push(error.message));
    await page.goto(baseUrl);
  });

  after(async () => {
    await browser?.close();
    await new Promise((resolve) => (server ? server.close(resolve) : resolve()));
    if (work) await rm(work, { recursive: true, force: true });
  });

  test('decodes every row (MP3 previews and WAV stems) and draws its waveform, rows in the spec order', async () => {
    for (const id of ['locked', 'unlocked']) {
      await board(id).locator('.stem-row .stem-waveform').nth(4).waitFor();
      const rows = await board(id)
        .locator('.stem-row')
        .evaluateAll((items) => items.map((item) => item.dataset.stem));
      assert.deepEqual(rows, ['original', 'vocals', 'drums', 'bass', 'other']);
      // wavesurfer draws into canvases inside its shadow root, 60 px high.
      const heights = await board(id)
        .locator('.stem-waveform')
        .evaluateAll((waves) =>
          waves.map(
            (wave) => wave.firstElementChild?.shadowRoot?.querySelector('canvas')?.getBoundingClientRect().height ?? 0,
          ),
        );
      assert.deepEqual(heights, [60, 60, 60, 60, 60]);
    }
    assert.equal(await board('locked').locator('.stems-board__time').textContent(), `0:00 / 0:0${PREVIEW_SECONDS}`);
    assert.equal(await board('unlocked').locator('.stems-board__time').textContent(), `0:00 / 0:0${SECONDS}`);
  });

  test('plays all rows on the Web Audio clock, skips 5 s, and pauses', async () => {
    const unlocked = board('unlocked');
    await unlocked.getByRole('button', { name: 'Play all' }).click();
    await unlocked.getByRole('button', { name: 'Pause' }).waitFor();
    await page.waitForFunction(() =>
      document
        .querySelector('section[aria-labelledby="stems-unlocked-title"] .stems-board__time')
        ?.textContent?.startsWith('0:01'),
    );
    await unlocked.getByRole('button', { name: 'Forward 5 s' }).click();
    assert.ok(seconds(await timeOf('unlocked')) >= 6, 'the skip moved every row 5 s on');
    await unlocked.getByRole('button', { name: 'Pause' }).click();
    const paused = await timeOf('unlocked');
    await page.waitForTimeout(1200);
    assert.equal(await timeOf('unlocked'), paused);
    // It plays to the end and stops there by itself.
    await unlocked.getByRole('button', { name: 'Play all' }).click();
    await unlocked.getByRole('button', { name: 'Pause' }).waitFor();
    await unlocked.getByRole('button', { name: 'Play all' }).waitFor({ timeout: 10_000 });
    assert.equal(await timeOf('unlocked'), `0:0${SECONDS}`);
  });

  test('starting one board pauses the other (one player at a time)', async () => {
    await board('locked').getByRole('button', { name: 'Play all' }).click();
    await board('locked').getByRole('button', { name: 'Pause' }).waitFor();
    await board('unlocked').getByRole('button', { name: 'Play all' }).click();
    await board('locked').getByRole('button', { name: 'Play all' }).waitFor();
    await board('unlocked').getByRole('button', { name: 'Pause' }).click();
  });

  test('solo and mute follow the spec rules', async () => {
    const locked = board('locked');
    const pressed = (name) => locked.getByRole('button', { name, exact: true }).getAttribute('aria-pressed');
    await locked.getByRole('button', { name: 'Solo Drums', exact: true }).click();
    assert.equal(await pressed('Solo Drums'), 'true');
    for (const name of ['Vocals', 'Bass', 'Other']) assert.equal(await pressed(`Mute ${name}`), 'true');
    await locked.getByRole('button', { name: 'Solo Drums', exact: true }).click();
    for (const name of ['Vocals', 'Bass', 'Other']) assert.equal(await pressed(`Mute ${name}`), 'false');
    // The original is the reference, not a channel of the sum: no mute or solo of its own.
    assert.equal(await locked.getByRole('button', { name: 'Mute Original', exact: true }).count(), 0);
  });

  test('play all sends out exactly the audible stems, never the original under them; the original is the A/B choice', async () => {
    // The board's real graph in Chromium, its output read where it leaves for the speakers (audioOutput.mjs).
    const signalPage = await page.context().newPage();
    signalPage.setDefaultTimeout(20_000);
    signalPage.on('pageerror', (error) => pageErrors.push(error.message));
    await tapAudioOutput(signalPage);
    await signalPage.goto(`${baseUrl}/?signals`);
    const signals = signalPage.locator('section[aria-labelledby="stems-signals-title"]');
    await signals.locator('.stem-row .stem-waveform').nth(3).waitFor();
    const listen = signals.getByRole('group', { name: 'Listen to' });
    const frequencies = Object.values(SIGNALS).map((tone) => tone.hz);
    const stemsDb = (...stems) => sinesDb(stems.map((stem) => SIGNALS[stem]));
    /** The output a second after a change: the gains have glided and the analyser holds only the new sound. */
    const settled = async () => {
      await signalPage.waitForTimeout(1000);
      return outputLevel(signalPage, frequencies);
    };
    const TOLERANCE_DB = 0.5;
    const HEARD_DB = -40;
    const GONE_DB = -80;
    const near = (measured, expected, what) =>
      assert.ok(
        Math.abs(measured - expected) <= TOLERANCE_DB,
        `${what}: ${measured.toFixed(2)} dBFS, expected ${expected.toFixed(2)} ± ${TOLERANCE_DB}`,
      );

    try {
      await signals.getByRole('button', { name: 'Play all' }).click();
      await signals.getByRole('button', { name: 'Pause' }).waitFor();

      // The defaults: the three stems summed, and no more (the original under them would add 6 dB).
      const all = await settled();
      near(all.rmsDb, stemsDb('vocals', 'drums', 'bass'), 'every stem at volume 1');
      for (const hz of frequencies) assert.ok(all.peakDb[hz] > HEARD_DB, `${hz} Hz heard: ${all.peakDb[hz]} dB`);
      assert.equal(await listen.getByRole('button', { name: 'Stems' }).getAttribute('aria-pressed'), 'true');

      // Karaoke: muting the vocals takes out exactly their energy, and their tone is gone from the output.
      await signals.getByRole('button', { name: 'Mute Vocals', exact: true }).click();
      const karaoke = await settled();
      near(karaoke.rmsDb, stemsDb('drums', 'bass'), 'vocals muted');
      const removedDb = 10 * Math.log10(10 ** (all.rmsDb / 10) - 10 ** (karaoke.rmsDb / 10));
      near(removedDb, stemsDb('vocals'), 'the energy removed by the mute');
      assert.ok(karaoke.peakDb[SIGNALS.vocals.hz] < GONE_DB, `vocals left: ${karaoke.peakDb[SIGNALS.vocals.hz]} dB`);

      // Solo: the drums alone.
      await signals.getByRole('button', { name: 'Solo Drums', exact: true }).click();
      const solo = await settled();
      near(solo.rmsDb, stemsDb('drums'), 'drums soloed');
      assert.ok(solo.peakDb[SIGNALS.bass.hz] < GONE_DB, `bass left: ${solo.peakDb[SIGNALS.bass.hz]} dB`);
      await signals.getByRole('button', { name: 'Solo Drums', exact: true }).click();
      await signals.getByRole('button', { name: 'Mute Vocals', exact: true }).click();
      assert.equal(
        await signals.getByRole('button', { name: 'Mute Vocals', exact: true }).getAttribute('aria-pressed'),
        'true',
      );

      // A/B: the original alone (vocals in it), with nothing of the stems on top; then the stems as they were set.
      await listen.getByRole('button', { name: 'Original' }).click();
      const original = await settled();
      near(original.rmsDb, stemsDb('vocals', 'drums', 'bass'), 'the original alone');
      assert.ok(original.peakDb[SIGNALS.vocals.hz] > HEARD_DB, 'the original holds the vocals');
      await listen.getByRole('button', { name: 'Stems' }).click();
      const back = await settled();
      near(back.rmsDb, stemsDb('drums', 'bass'), 'back on the stems, vocals still muted');
      assert.ok(back.peakDb[SIGNALS.vocals.hz] < GONE_DB, 'no vocals on the stems');

      await signals.getByRole('button', { name: 'Pause' }).click();
    } finally {
      await signalPage.close();
    }
  });

  test('locked, "download all" is off and says why; unlocked, it saves every stem and the original in one zip', async () => {
    const lockedButton = board('locked').getByRole('button', { name: 'Download all' });
    assert.equal(await lockedButton.isDisabled(), true);
    const reason = await lockedButton.getAttribute('aria-describedby');
    assert.match(await page.locator(`#${reason}`).textContent(), /Unlock the track/);

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      board('unlocked').getByRole('button', { name: 'Download all' }).click(),
    ]);
    assert.equal(download.suggestedFilename(), 'Ndanane live_stems.zip');
    const zip = await JSZip.loadAsync(await readFile(await download.path()));
    const names = Object.keys(zip.files).sort();
    assert.deepEqual(
      names,
      ['bass', 'drums', 'original', 'other', 'vocals'].map((stem) => `Ndanane live_${stem}.wav`),
    );
    for (const stem of ['vocals', 'original']) {
      const inside = await zip.file(`Ndanane live_${stem}.wav`).async('nodebuffer');
      assert.ok(
        inside.equals(await readFile(join(work, 'media', `${stem}.wav`))),
        `${stem} is byte for byte the served WAV`,
      );
    }
  });

  test('the video plays when asked, keeps its place when switched to the original, and draws its sound', async () => {
    const video = page.locator('.video-result');
    await video.locator('video.video-result__video').waitFor();
    await video.locator('.stem-waveform').waitFor();
    await video.getByRole('button', { name: 'Play', exact: true }).click();
    await page.waitForFunction(() => document.querySelector('video.video-result__video')?.currentTime > 1.2);
    assert.equal(await board('unlocked').getByRole('button', { name: 'Play all' }).count(), 1);
    const before = await page.evaluate(() => document.querySelector('video.video-result__video').currentTime);
    await video.getByRole('button', { name: 'Original', exact: true }).click();
    const resumedAt = await page.waitForFunction(() => {
      const element = document.querySelector('video.video-result__video');
      const ready = element?.getAttribute('aria-label') === 'Original' && element.readyState >= 1;
      return ready && element.currentTime > 0 ? element.currentTime : false;
    });
    const after = await resumedAt.jsonValue();
    assert.ok(
      after >= before - 0.1 && after < before + 1,
      `the original resumed at ${after} s, the preview was at ${before} s`,
    );
    assert.equal(await video.getByRole('button', { name: 'Pause', exact: true }).count(), 1);
    await video.getByRole('button', { name: 'Back to start' }).click();
    assert.ok((await page.evaluate(() => document.querySelector('video.video-result__video').currentTime)) < 0.5);
    await video.getByRole('button', { name: 'Pause', exact: true }).click();
  });

  test('has no serious accessibility violation and no horizontal overflow at 375 and 1280 px', async () => {
    for (const width of [375, 1280]) {
      await page.setViewportSize({ width, height: 900 });
      await page.waitForTimeout(200);
      assert.equal(
        await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth),
        0,
        `${width} px`,
      );
    }
    await page.evaluate(AXE);
    const results = await page.evaluate(() =>
      window.axe.run(document, {
        resultTypes: ['violations'],
        runOnly: ['wcag2a', 'wcag2aa', 'wcag21aa', 'best-practice'],
      }),
    );
    const serious = results.violations
      .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
      .map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`);
    assert.deepEqual(serious, []);
    assert.deepEqual(pageErrors, []);
    if (process.env.STEMS_SCREENSHOTS) {
      for (const width of [375, 1280]) {
        await page.setViewportSize({ width, height: 900 });
        await page.screenshot({ path: join(process.env.STEMS_SCREENSHOTS, `stems-${width}.png`), fullPage: true });
      }
    }
  });
});

describe('the stems result in the studio, on the real server', { concurrency: false }, () => {
  const PERSON = {
    firstName: 'Moussa',
    lastName: 'Sarr',
    email: `moussa.sarr.${Date.now()}@example.com`,
    password: 'Ndeye-Coumba-2026',
  };
  const STEM_ROWS = ['original', 'vocals', 'drums', 'bass', 'other'];
  let app;
  let appBrowser;
  let studio;
  let dir;
  let trackId;
  let token;
  const errors = [];

  const api = async (path, init = {}) => {
    const response = await fetch(`${app.baseUrl}${path}`, {
      ...init,
      headers: {
        Authorization: `Bearer ${token}`,
        ...(init.body && !(init.body instanceof FormData) ? { 'Content-Type': 'application/json' } : {}),
        ...init.headers,
      },
    });
    return response;
  };
  const stemsBoard = () => studio.locator('.stems-board');

  /** A PayPal payment (a track or a pack) made by API, approved on the sandbox and captured. */
  const payWithPayPalSandbox = async (order) => {
    const intent = await api('/api/payments/createIntent', { method: 'POST', body: JSON.stringify(order) });
    assert.ok(intent.ok, await intent.clone().text());
    const { orderId } = await intent.json();
    const approved = await fetch(`${app.baseUrl}/sandbox/paypal/orders/${orderId}/approve`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: '{}',
    });
    assert.equal(approved.status, 200);
    const captured = await api(`/api/payments/paypal/capture/${orderId}`, { method: 'POST' });
    assert.ok(captured.ok, await captured.clone().text());
  };

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'kora-stems-app-e2e-'));
    // 12 s of a chord over a pulse, 44.1 kHz stereo: above the 1 MB minimum of stem separation.
    await ffmpeg([
      '-f',
      'lavfi',
      '-i',
      'sine=frequency=220:duration=12',
      '-f',
      'lavfi',
      '-i',
      'sine=frequency=330:duration=12',
      '-filter_complex',
      '[0][1]amix=inputs=2,volume=0.5,apulsator=hz=2',
      '-ac',
      '2',
      '-ar',
      '44100',
      '-c:a',
      'pcm_s16le',
      join(dir, 'sunu-gaal.wav'),
    ]);
    app = await startServer();
    appBrowser = await launchBrowser();
    const context = watch(
      await appBrowser.newContext({
        locale: 'en-US',
        viewport: { width: 1280, height: 900 },
        acceptDownloads: true,
      }),
    );
    studio = await context.newPage();
    studio.setDefaultTimeout(30_000);
    studio.on('pageerror', (error) => errors.push(error.message));
  });

  after(async () => {
    await appBrowser?.close();
    await app?.stop();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  test("a stem separation uploaded with the user's token is separated and opens on the board, previews playing", async () => {
    await studio.goto(`${app.baseUrl}/dashboard`);
    await studio.waitForURL(/\/oidc\/interaction\//);
    await signUpOnProvider(studio, app, PERSON);
    await studio.waitForURL(`${app.baseUrl}/dashboard`);
    token = await studio.evaluate(() => {
      const key = Object.keys(localStorage).find((name) => name.startsWith('oidc.user:'));
      return JSON.parse(localStorage.getItem(key)).access_token;
    });

    const form = new FormData();
    form.append('file', new Blob([await readFile(join(dir, 'sunu-gaal.wav'))], { type: 'audio/wav' }), 'Sunu gaal.wav');
    form.append('service', 'STEM_SEPARATION');
    form.append('mode', 'full');
    const uploaded = await api('/api/audio/upload', { method: 'POST', body: form });
    assert.equal(uploaded.status, 201, await uploaded.clone().text());
    trackId = (await uploaded.json()).id;
    const deadline = Date.now() + 240_000;
    for (;;) {
      const { status, error } = await (await api(`/api/audio/track/${trackId}/status`)).json();
      if (status === 'STEMS_READY') break;
      assert.notEqual(status, 'FAILED', error);
      assert.ok(Date.now() < deadline, `still ${status} after 4 minutes`);
      await new Promise((resolve) => setTimeout(resolve, 1000));
    }

    await studio.goto(`${app.baseUrl}/dashboard?track=${trackId}`);
    await stemsBoard()
      .locator('.stem-row .stem-waveform')
      .nth(STEM_ROWS.length - 1)
      .waitFor({ timeout: 60_000 });
    const rows = await stemsBoard()
      .locator('.stem-row')
      .evaluateAll((items) => items.map((item) => item.dataset.stem));
    assert.deepEqual(rows, STEM_ROWS);
    assert.equal(await stemsBoard().locator('.stem-row__status--error').count(), 0, 'every preview loaded');

    const download = stemsBoard().getByRole('button', { name: 'Download all' });
    assert.equal(await download.isDisabled(), true);
    assert.match(
      await studio.locator(`#${await download.getAttribute('aria-describedby')}`).textContent(),
      /Unlock the track/,
    );

    await stemsBoard().getByRole('button', { name: 'Play all' }).click();
    await studio.waitForFunction(() => document.querySelector('.stems-board__time')?.textContent?.startsWith('0:01'));
    await stemsBoard().getByRole('button', { name: 'Pause' }).click();
  });

  /** "Download all" on the board: the zip holds every stem of the track, each byte for byte the full file served. */
  const downloadAllStems = async (id, name) => {
    const track = await (await api(`/api/audio/track/${id}`)).json();
    assert.equal(track.unlocked, true);
    const [saved] = await Promise.all([
      studio.waitForEvent('download', { timeout: 60_000 }),
      stemsBoard().getByRole('button', { name: 'Download all' }).click(),
    ]);
    assert.equal(saved.suggestedFilename(), `${name}_stems.zip`);
    const zip = await JSZip.loadAsync(await readFile(await saved.path()));
    const stems = Object.keys(track.stems);
    assert.deepEqual(Object.keys(zip.files).sort(), stems.map((stem) => `${name}_${stem}.wav`).sort());
    for (const stem of stems) {
      const served = Buffer.from(await (await api(track.stems[stem])).arrayBuffer());
      const inside = await zip.file(`${name}_${stem}.wav`).async('nodebuffer');
      assert.equal(inside.subarray(0, 4).toString('latin1'), 'RIFF', `${stem} is a WAV`);
      assert.ok(inside.equals(served), `${stem} is byte for byte the full stem the server streams`);
    }
    return stems;
  };

  /** Marks the page: still there after an action means the page was not reloaded. */
  const markPage = () => studio.evaluate(() => (window.__koraNotReloaded = true));
  const notReloaded = async () =>
    assert.equal(await studio.evaluate(() => window.__koraNotReloaded === true), true, 'no reload');

  test('paid for with PayPal in the popup, the board unlocks without a reload and "download all" saves the full stems', async () => {
    await markPage();
    await studio.locator('.payment-options').getByRole('button', { name: 'Pay for this track' }).click();
    const panel = studio.getByRole('dialog', { name: 'Pay for this track' });
    await panel.getByLabel('Currency').selectOption('EUR');
    const popupOpened = studio.waitForEvent('popup');
    await panel.getByRole('button', { name: /with PayPal or a card$/ }).click();
    const popup = await popupOpened;
    const closed = popup.waitForEvent('close', { timeout: 15_000 });
    await popup.getByRole('button', { name: 'Approve', exact: true }).click({ noWaitAfter: true });
    await closed;
    await studio.getByText('Thank you!', { exact: true }).waitFor({ timeout: 15_000 });
    await stemsBoard().getByRole('button', { name: 'Download all' }).and(studio.locator(':enabled')).waitFor();
    assert.equal(await studio.locator('.payment-banner--error, [role="alert"]').count(), 0, 'no error banner');
    await notReloaded();
    await stemsBoard()
      .locator('.stem-row .stem-waveform')
      .nth(STEM_ROWS.length - 1)
      .waitFor({ timeout: 60_000 });
    assert.equal(await stemsBoard().locator('.stems-board__notice').count(), 0, 'no preview notice once unlocked');
    assert.match(
      await stemsBoard().locator('.stems-board__time').textContent(),
      /\/ 0:12$/,
      'the full length, not the preview',
    );
    assert.deepEqual((await downloadAllStems(trackId, 'Sunu gaal')).sort(), [...STEM_ROWS].sort());
  });

  test('a mode button separates the same upload in that mode after asking, and the first mode opens again', async () => {
    const modes = () => stemsBoard().getByRole('group', { name: 'Separation mode' });
    assert.equal(await modes().getByRole('button', { name: 'Full' }).getAttribute('aria-pressed'), 'true');

    // No stem separation credit yet (the track was paid alone): the plans instead of a new job.
    await modes().getByRole('button', { name: 'Vocals' }).click();
    let dialog = studio.getByRole('dialog', { name: 'Separate in Vocals mode?' });
    assert.equal(
      await dialog.getByRole('link', { name: 'Subscribe to a pack' }).getAttribute('href'),
      '/accountSettings?section=plans&service=STEM_SEPARATION#plansSection',
    );
    await dialog.getByRole('button', { name: 'Not now' }).click();

    // A stem separation pack, bought through the PayPal sandbox by API; the page follows the credits live.
    await payWithPayPalSandbox({
      provider: 'PAYPAL',
      currency: 'USD',
      planId: 'stems-starter',
      billingCycle: 'MONTHLY',
    });
    await studio.locator('.plan-status__credits').getByText('5 credits').waitFor({ timeout: 15_000 });

    await modes().getByRole('button', { name: 'Vocals' }).click();
    dialog = studio.getByRole('dialog', { name: 'Separate in Vocals mode?' });
    await dialog.getByText('its own free preview').waitFor();
    await dialog.getByRole('button', { name: 'Start the separation' }).click();
    await studio.waitForURL((url) => url.searchParams.get('track') !== trackId);
    const vocalsId = new URL(studio.url()).searchParams.get('track');
    await studio.locator('.processing').waitFor();
    await stemsBoard().waitFor({ timeout: 240_000 });
    assert.equal(await modes().getByRole('button', { name: 'Vocals' }).getAttribute('aria-pressed'), 'true');
    const vocals = await (await api(`/api/audio/track/${vocalsId}`)).json();
    assert.equal(vocals.mode, 'vocals');
    assert.equal(vocals.filename, 'Sunu gaal.wav');
    assert.equal(vocals.unlocked, false, 'a new job, locked until paid for');

    // Back to "Full": the separation already made opens, nothing new is started.
    await modes().getByRole('button', { name: 'Full' }).click();
    await studio.waitForURL((url) => url.searchParams.get('track') === trackId);
    assert.equal(await studio.getByRole('dialog').count(), 0);
    await stemsBoard()
      .locator('.stem-row .stem-waveform')
      .nth(STEM_ROWS.length - 1)
      .waitFor({ timeout: 60_000 });
    const { totalCount } = await (await api('/api/audio/tracks?service=STEM_SEPARATION')).json();
    assert.equal(totalCount, 2);
  });

  test('a credit unlocks the vocals separation at once: downloads without a reload, the zip holds its full stems', async () => {
    const { tracks } = await (await api('/api/audio/tracks?service=STEM_SEPARATION')).json();
    const vocals = tracks.find((track) => track.id !== trackId);
    await studio.goto(`${app.baseUrl}/dashboard?track=${vocals.id}`);
    await stemsBoard().locator('.stem-row .stem-waveform').first().waitFor({ timeout: 60_000 });
    await markPage();
    const options = studio.locator('.payment-options');
    await options.getByText('5 credits left for this service.').waitFor();
    await options.getByRole('button', { name: 'Use a credit' }).click();
    const started = Date.now();
    await studio.getByRole('dialog', { name: 'Use a credit' }).getByRole('button', { name: 'Use a credit' }).click();
    await stemsBoard().getByRole('button', { name: 'Download all' }).and(studio.locator(':enabled')).waitFor();
    const seconds = (Date.now() - started) / 1000;
    process.stdout.write(`# from "Use a credit" to "Download all" enabled: ${seconds.toFixed(2)} s\n`);
    await studio.getByText('Thank you!', { exact: true }).waitFor();
    assert.equal(await studio.getByText('Processing timed out', { exact: false }).count(), 0, 'no timeout banner');
    await notReloaded();
    const { subscription } = await (await api('/api/subscriptions/current')).json();
    assert.equal(subscription.remaining.STEM_SEPARATION, 4, 'one credit spent');
    const stems = await downloadAllStems(vocals.id, 'Sunu gaal');
    assert.ok(stems.includes('vocals') && stems.includes('original'), stems.join(', '));
  });

  test('the board fits 375 and 1280 px with no serious axe violation', async () => {
    for (const width of [375, 1280]) {
      await studio.setViewportSize({ width, height: 900 });
      await studio.waitForTimeout(200);
      assert.equal(
        await studio.evaluate(() => document.documentElement.scrollWidth - window.innerWidth),
        0,
        `${width} px`,
      );
    }
    await studio.evaluate(AXE);
    const results = await studio.evaluate(() =>
      window.axe.run(document, {
        resultTypes: ['violations'],
        runOnly: ['wcag2a', 'wcag2aa', 'wcag21aa', 'best-practice'],
      }),
    );
    const serious = results.violations
      .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
      .map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`);
    assert.deepEqual(serious, []);
    assert.deepEqual(errors, []);
  });
});
