/* global window, document -- the functions given to page.evaluate run in the browser */
// The stems board and the video result in Debian's Chromium, on real files made by ffmpeg: Web Audio decoding and
// its clock, wavesurfer drawing, the zip of "download all" and the video element. The components run in a small
// page built from `web/src/features/studio/stems/test/harness` (the studio route that shows them is tested in
// studio.test.mjs), served with the media by a plain HTTP server. Run:
//   node --test --test-concurrency=1 web/e2e/stems.test.mjs
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer } from 'node:http';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { extname, join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { promisify } from 'node:util';
import { build } from 'vite';
import react from '@vitejs/plugin-react';
import JSZip from 'jszip';
import { launchBrowser, ROOT } from './support.mjs';

const run = promisify(execFile);
const require = createRequire(import.meta.url);
const AXE = await readFile(require.resolve('axe-core/axe.min.js'), 'utf8');
const HARNESS = join(ROOT, 'web/src/features/studio/stems/test/harness');
const SECONDS = 8;
const PREVIEW_SECONDS = 3;
/** Each stem a different tone, the original their mix (what a separation gives back, in spirit). */
const STEMS = { vocals: 'sine=frequency=660', drums: 'sine=frequency=110', bass: 'sine=frequency=55' };
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

function serve(siteDir, mediaDir) {
  return createServer(async (request, response) => {
    const path = decodeURIComponent(new URL(request.url, 'http://x').pathname);
    try {
      if (path === '/config.json') {
        response.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify(CONFIG));
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
    const context = await browser.newContext({
      locale: 'en-US',
      viewport: { width: 1280, height: 900 },
      acceptDownloads: true,
    });
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
    for (const name of ['Original', 'Vocals', 'Bass', 'Other']) assert.equal(await pressed(`Mute ${name}`), 'true');
    await locked.getByRole('button', { name: 'Solo Drums', exact: true }).click();
    for (const name of ['Original', 'Vocals', 'Bass', 'Other']) assert.equal(await pressed(`Mute ${name}`), 'false');
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
