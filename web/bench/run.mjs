/* eslint no-console: "off" -- a benchmark prints its figures */
/* global document, window, Element -- the functions given to the page run in the browser */
// bench:web: the first route's JavaScript (gzipped), the time until the account settings page is interactive, and a
// 4-minute WAV from the file picker to the first sound of its mastered preview, against the real server on loopback
// in headless Chromium. `npm run bench:web` builds the server and client first.
import { execFileSync } from 'node:child_process';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { ROOT, launchBrowser, signUpOnProvider, startServer } from '../e2e/support.mjs';

const TARGET_FIRST_ROUTE_KB = 200;
const TARGET_INTERACTIVE_MS = 1500;
const TARGET_FIRST_SOUND_MS = 15_000;
/** Issue 28: at 2 Mbit/s up with 150 ms of latency and two 10-second drops, from Start to a playable preview. */
const TARGET_NETWORK_MS = 160_000;
/** ... sending at most this share of the WAV's bytes (lossless compression). */
const TARGET_NETWORK_SHARE = 0.65;
const RUNS = Number(process.env.BENCH_RUNS ?? 15);
const UPLOAD_RUNS = Number(process.env.BENCH_UPLOAD_RUNS ?? 3);
// `--only size,interactive,upload` (default: all three); `network` (not by default: minutes per run) sends the 4-minute
// WAV through a phone's network (web/e2e/phone-network.mjs): 2 Mbit/s up, 150 ms, cut twice for 10 s.
const onlyArg = process.argv.find((arg) => arg.startsWith('--only='))?.slice('--only='.length);
const only = new Set((onlyArg ?? 'size,interactive,upload').split(','));

/**
 * The 4-minute track: the engine benchmark's song (112 bars rendered by fluidsynth, 244 s, 44.1 kHz stereo 16-bit),
 * else, without fluidsynth, a chord with a beat and noise made by ffmpeg (240 s, same format).
 */
async function fourMinuteWav(dir) {
  const require = createRequire(import.meta.url);
  try {
    const { renderSong } = require(join(ROOT, 'modules/audio-engine/dist/eval/material.js'));
    return { path: await renderSong(dir, 'bench-4min', 112, 3), kind: 'fluidsynth song, 112 bars' };
  } catch (error) {
    console.log(`  (fluidsynth material unavailable: ${error.message}; using ffmpeg tones, noise and a beat)`);
    const path = join(dir, 'bench-4min.wav');
    const lavfi = (spec) => ['-f', 'lavfi', '-i', spec];
    execFileSync('ffmpeg', [
      ...['-hide_banner', '-loglevel', 'error', '-y'],
      ...lavfi('sine=frequency=110:duration=240'),
      ...lavfi('sine=frequency=330:duration=240'),
      ...lavfi('sine=frequency=554:duration=240'),
      ...lavfi('anoisesrc=color=pink:amplitude=0.2:duration=240'),
      ...[
        '-filter_complex',
        '[0][1][2]amix=inputs=3,apulsator=hz=2[tones];[3]apulsator=hz=4:amount=1[beat];[tones][beat]amix=inputs=2,volume=0.8',
      ],
      ...['-ac', '2', '-ar', '44100', '-c:a', 'pcm_s16le', path],
    ]);
    return { path, kind: 'ffmpeg tones, pink noise and a beat' };
  }
}

/**
 * Runs in the page before its scripts: times, on the page's own clock, the press of Start, the end of the upload (the
 * address gets the new track), the result shown, the preview player ready, and its first sound (the preview's audio
 * element playing with its currentTime advancing).
 */
function instrumentFirstSound() {
  const marks = {};
  window.__benchMarks = marks;
  const previewAudio = () =>
    [...document.querySelectorAll('.result .player')]
      .find((player) => player.querySelector('.player__label')?.textContent === 'Preview')
      ?.querySelector('audio');
  document.addEventListener(
    'click',
    (event) => {
      const button = event.target instanceof Element ? event.target.closest('button') : null;
      if (button?.textContent?.trim() === 'Start' && marks.start === undefined) marks.start = performance.now();
    },
    true,
  );
  let firstTime = null;
  const watch = setInterval(() => {
    const now = performance.now();
    if (marks.start === undefined) return;
    if (marks.uploaded === undefined && new URLSearchParams(window.location.search).has('track')) marks.uploaded = now;
    if (marks.result === undefined && document.querySelector('.result')) marks.result = now;
    const audio = previewAudio();
    if (marks.previewReady === undefined && audio?.closest('.player')?.dataset.state === 'ready') {
      marks.previewReady = now;
    }
    if (audio && !audio.paused && marks.sound === undefined) {
      if (firstTime === null) firstTime = audio.currentTime;
      else if (audio.currentTime > 0 && audio.currentTime > firstTime) {
        marks.sound = now;
        clearInterval(watch);
      }
    }
  }, 4);
  document.addEventListener(
    'playing',
    (event) => {
      if (event.target === previewAudio() && marks.playing === undefined) marks.playing = performance.now();
    },
    true,
  );
}

const server = await startServer({ phoneNetwork: only.has('network') });
const browser = await launchBrowser();
let failed = false;
try {
  // An account, signed in once; its stored session is reused by every measured page.
  const setup = await browser.newContext({ locale: 'en-US', viewport: { width: 1280, height: 900 } });
  const page = await setup.newPage();
  await page.goto(`${server.baseUrl}/accountSettings?section=general`);
  await page.waitForURL(/\/oidc\/interaction\//);
  await signUpOnProvider(page, server, {
    firstName: 'Bench',
    lastName: 'Mark',
    email: `bench.${Date.now()}@example.com`,
    password: 'bench-password-2026',
  });
  await page.locator('form[data-ready]').waitFor({ timeout: 20_000 });
  const storageState = await setup.storageState();
  await setup.close();

  /** The scripts a cold load of `path` requests, and their gzipped sizes. */
  async function scriptsOf(path) {
    const context = await browser.newContext({ storageState, serviceWorkers: 'block' });
    const tab = await context.newPage();
    const scripts = new Set();
    tab.on('request', (request) => {
      const url = new URL(request.url());
      if (request.resourceType() === 'script' && url.origin === server.baseUrl) scripts.add(url.pathname);
    });
    await tab.goto(`${server.baseUrl}${path}`, { waitUntil: 'networkidle' });
    await context.close();
    const sizes = [];
    for (const script of scripts) {
      const bytes = await readFile(join(ROOT, 'web', 'dist', script));
      sizes.push({ script, raw: bytes.length, gzip: gzipSync(bytes, { level: 9 }).length });
    }
    return sizes.sort((a, b) => b.gzip - a.gzip);
  }

  /** A new context (cold cache) on the studio with AI mastering chosen and `path` picked, ready for Start. */
  async function masteringWith(path, viewport, initScript) {
    const context = await browser.newContext({ storageState, serviceWorkers: 'block', locale: 'en-US', viewport });
    if (initScript) await context.addInitScript(initScript);
    const tab = await context.newPage();
    await tab.goto(`${server.baseUrl}/`);
    const mastering = tab.getByRole('button', { name: /AI mastering/ });
    await mastering.waitFor();
    if ((await mastering.getAttribute('aria-pressed')) !== 'true') await mastering.click();
    await tab.locator('.dropzone input[type=file]').setInputFiles(path);
    await tab.locator('.dropzone__file').waitFor();
    return { context, tab };
  }

  const kb = (bytes) => (bytes / 1024).toFixed(1);
  if (only.has('size')) {
    const first = await scriptsOf('/');
    const firstTotal = first.reduce((sum, file) => sum + file.gzip, 0);
    console.log(`First route (/), signed in, cold cache: ${first.length} scripts`);
    for (const file of first) console.log(`  ${file.script}  ${kb(file.raw)} KB raw, ${kb(file.gzip)} KB gzipped`);
    console.log(`  total ${kb(firstTotal)} KB gzipped (target <= ${TARGET_FIRST_ROUTE_KB} KB)`);
    if (firstTotal / 1024 > TARGET_FIRST_ROUTE_KB) failed = true;
    const settings = await scriptsOf('/accountSettings?section=general');
    const settingsTotal = settings.reduce((sum, file) => sum + file.gzip, 0);
    console.log(`Account settings route: ${settings.length} scripts, ${kb(settingsTotal)} KB gzipped in all`);
  }

  // Time from navigation start until the profile form is filled and usable, cold cache, each run a new context.
  if (only.has('interactive')) {
    const times = [];
    for (let run = 0; run < RUNS; run += 1) {
      const context = await browser.newContext({ storageState, serviceWorkers: 'block' });
      const tab = await context.newPage();
      await tab.goto(`${server.baseUrl}/accountSettings?section=general`, { waitUntil: 'commit' });
      const ready = await tab.waitForFunction(
        () => {
          const form = document.querySelector('form[data-ready]');
          const input = form?.querySelector('input[name="firstName"]');
          return input && input.value !== '' && !input.disabled ? performance.now() : false;
        },
        undefined,
        { polling: 'raf', timeout: 20_000 },
      );
      times.push(await ready.jsonValue());
      await context.close();
    }
    times.sort((a, b) => a - b);
    const at = (q) => times[Math.min(times.length - 1, Math.ceil(q * times.length) - 1)];
    console.log(
      `Account settings interactive (${RUNS} cold loads): median ${at(0.5).toFixed(0)} ms, p95 ${at(0.95).toFixed(0)} ms, ` +
        `min ${times[0].toFixed(0)} ms, max ${times[times.length - 1].toFixed(0)} ms (target <= ${TARGET_INTERACTIVE_MS} ms)`,
    );
    if (at(0.95) > TARGET_INTERACTIVE_MS) failed = true;
  }

  // A 4-minute WAV through the file picker to the first sound of its mastered preview, each run a new context
  // (cold cache) on `/` with AI mastering chosen: Start pressed, upload, the job, the result, then the preview's
  // play button pressed as soon as it can be.
  if (only.has('upload')) {
    const dir = await mkdtemp(join(tmpdir(), 'kora-bench-web-'));
    try {
      const made = Date.now();
      const song = await fourMinuteWav(dir);
      const size = (await stat(song.path)).size;
      console.log(
        `4-minute WAV: ${song.kind}, ${(size / 1024 / 1024).toFixed(1)} MB, made in ${((Date.now() - made) / 1000).toFixed(1)} s`,
      );
      const runs = [];
      for (let run = 0; run < UPLOAD_RUNS; run += 1) {
        const { context, tab } = await masteringWith(song.path, { width: 1280, height: 900 }, instrumentFirstSound);
        tab.setDefaultTimeout(120_000);
        await tab.getByRole('button', { name: 'Start', exact: true }).click();
        // As a listener would: press the preview's play button as soon as it can be pressed.
        const play = tab.getByRole('button', { name: 'Play Preview' });
        await play.click();
        await tab.waitForFunction(() => window.__benchMarks.sound !== undefined, undefined, { timeout: 120_000 });
        const marks = await tab.evaluate(() => window.__benchMarks);
        const split = {
          upload: marks.uploaded - marks.start,
          result: marks.result - marks.start,
          previewReady: marks.previewReady - marks.start,
          playing: marks.playing - marks.start,
          sound: marks.sound - marks.start,
        };
        runs.push(split);
        const s = (ms) => `${(ms / 1000).toFixed(2)} s`;
        console.log(
          `  run ${run + 1}: upload done ${s(split.upload)}, result shown ${s(split.result)}, ` +
            `preview ready ${s(split.previewReady)}, 'playing' ${s(split.playing)}, first sound ${s(split.sound)}`,
        );
        await context.close();
      }
      const median = (values) => values.sort((a, b) => a - b)[Math.floor((values.length - 1) / 2)];
      const sound = median(runs.map((run) => run.sound));
      console.log(
        `4-minute WAV, Start to first sound of the mastered preview (${UPLOAD_RUNS} runs): median ` +
          `${(sound / 1000).toFixed(2)} s (upload ${(median(runs.map((run) => run.upload)) / 1000).toFixed(2)} s, ` +
          `result ${(median(runs.map((run) => run.result)) / 1000).toFixed(2)} s) (target <= ${TARGET_FIRST_SOUND_MS / 1000} s)`,
      );
      if (sound > TARGET_FIRST_SOUND_MS) failed = true;
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }

  // The same 4-minute WAV from a phone: 2 Mbit/s up, 150 ms of latency, and the network gone for 10 s twice (every
  // connection reset and the browser offline), at a third and two thirds of the file; Start to the preview playable.
  if (only.has('network')) {
    const dir = await mkdtemp(join(tmpdir(), 'kora-bench-network-'));
    try {
      const song = await fourMinuteWav(dir);
      const size = (await stat(song.path)).size;
      console.log(`4-minute WAV: ${song.kind}, ${(size / 1024 / 1024).toFixed(1)} MB`);
      const runs = [];
      for (let run = 0; run < UPLOAD_RUNS; run += 1) {
        const { context, tab } = await masteringWith(song.path, { width: 390, height: 844 });
        tab.setDefaultTimeout(300_000);
        const cdp = await context.newCDPSession(tab);
        server.network.shape({ upBytesPerSecond: 250_000, latencyMs: 150 });
        const sentBefore = server.network.received;
        const started = Date.now();
        await tab.getByRole('button', { name: 'Start', exact: true }).click();
        // The drops, by the bytes the sending line reports (the server's own count is the proxy's).
        const drops = [];
        for (const share of [1 / 3, 2 / 3]) {
          await tab.waitForFunction(
            (wanted) => {
              const line = document.querySelector('.upload-card__send[data-phase="sending"]')?.textContent ?? '';
              const [done, total] = [...line.matchAll(/([\d.,]+)\s*MB/g)].map((m) => Number(m[1].replace(',', '')));
              return total > 0 && done / total >= wanted;
            },
            share,
            { polling: 200 },
          );
          drops.push(((Date.now() - started) / 1000).toFixed(1));
          server.network.cut(10_000);
          await cdp.send('Network.emulateNetworkConditions', {
            offline: true,
            latency: 0,
            downloadThroughput: -1,
            uploadThroughput: -1,
          });
          await new Promise((resolve) => setTimeout(resolve, 10_000));
          await cdp.send('Network.emulateNetworkConditions', {
            offline: false,
            latency: 0,
            downloadThroughput: -1,
            uploadThroughput: -1,
          });
        }
        await tab.getByRole('button', { name: 'Play Preview' }).waitFor();
        const ms = Date.now() - started;
        const sent = server.network.received - sentBefore;
        server.network.shape({});
        runs.push({ ms, share: sent / size });
        console.log(
          `  run ${run + 1}: Start to a playable preview ${(ms / 1000).toFixed(1)} s (drops at ${drops.join(' s and ')} s), ` +
            `${(sent / 1024 / 1024).toFixed(1)} MB sent (${((100 * sent) / size).toFixed(1)} % of the WAV)`,
        );
        await context.close();
      }
      const median = (values) => values.sort((a, b) => a - b)[Math.floor((values.length - 1) / 2)];
      const ms = median(runs.map((run) => run.ms));
      const share = median(runs.map((run) => run.share));
      console.log(
        `4-minute WAV at 2 Mbit/s, 150 ms, two 10 s drops (${UPLOAD_RUNS} runs): Start to a playable preview, median ` +
          `${(ms / 1000).toFixed(1)} s (target <= ${TARGET_NETWORK_MS / 1000} s); sent ${(share * 100).toFixed(1)} % of ` +
          `the WAV (target <= ${TARGET_NETWORK_SHARE * 100} %)`,
      );
      if (ms > TARGET_NETWORK_MS || share > TARGET_NETWORK_SHARE) failed = true;
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }
} finally {
  await browser.close();
  await server.stop();
}
console.log(failed ? 'bench:web: a target was missed' : 'bench:web: all targets met');
process.exitCode = failed ? 1 : 0;
