/* global window, document -- the functions given to page.evaluate run in the browser */
// The progress of a real mastering job, judged against its own time in Chromium. Its curve is judged by the clock, so
// `web/e2e/run.mjs` runs this file alone, after the others (SOLO there): beside another file's jobs, a job whose second
// half shares the cores runs slower than its first, and no estimate could know it beforehand (CI stop 39 and a local
// run with a busy loop: "76 % shown 15855 ms into a 37452 ms job").
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { chordWav, launchBrowser, recordFailures, signUpOnProvider, startServer, watch } from './support.mjs';

recordFailures('progress');

const PERSON = {
  firstName: 'Mariama',
  lastName: 'Ba',
  email: `mariama.ba.${Date.now()}@example.com`,
  password: 'Une-si-longue-lettre-1979',
};

let server;
let browser;
let page;
let media;
let song;

describe('the progress bar in Chromium', { concurrency: false }, () => {
  before(async () => {
    media = await mkdtemp(join(tmpdir(), 'kora-progress-e2e-'));
    // Three minutes of CD audio: a job of several seconds, whose progress curve can be judged.
    song = chordWav(join(media, 'yaay-boy.wav'), 180);
    server = await startServer();
    browser = await launchBrowser();
    const context = watch(await browser.newContext({ locale: 'en-US', viewport: { width: 1280, height: 900 } }));
    page = await context.newPage();
    page.setDefaultTimeout(30_000);
  });

  after(async () => {
    await browser?.close();
    await server?.stop();
    if (media) await rm(media, { recursive: true, force: true });
  });

  test('the progress of a real job tells the truth: from the ring to the bar without going back, never far ahead', async (t) => {
    await page.goto(`${server.baseUrl}/dashboard`);
    await page.waitForURL(/\/oidc\/interaction\//);
    await signUpOnProvider(page, server, PERSON);
    await page.waitForURL(`${server.baseUrl}/dashboard`);
    // The account's demos are made (or copied from DEMO_CACHE_DIR) at sign-up, by this server's engine: the job to
    // judge starts once they are there, on a quiet engine.
    await page.waitForFunction(
      async () => {
        const key = Object.keys(localStorage).find((name) => name.startsWith('oidc.user:'));
        const token = key && JSON.parse(localStorage.getItem(key)).access_token;
        if (!token) return false;
        const response = await fetch('/api/audio/tracks?isDemo=true&limit=10', {
          headers: { Authorization: `Bearer ${token}` },
        });
        return response.ok && (await response.json()).tracks.length >= 3;
      },
      null,
      { timeout: 180_000, polling: 500 },
    );
    await page.getByRole('button', { name: /AI mastering/ }).click();
    // What the screen shows, every 50 ms: the ring while the bytes go up, then the processing bar, then the result.
    await page.evaluate(() => {
      window.progressSamples = [];
      window.progressSampler = setInterval(() => {
        const ring = document.querySelector('.ring__label');
        const bar = document.querySelector('.processing [role=progressbar]');
        const left = document.querySelector('.processing__numbers span:last-child');
        window.progressSamples.push({
          t: performance.now(),
          ring: ring ? Number.parseInt(ring.textContent, 10) : null,
          bar: bar ? Number(bar.getAttribute('aria-valuenow')) : null,
          left: left ? left.textContent : null,
          result: document.querySelector('.result') !== null,
        });
      }, 50);
    });
    await page.locator('.dropzone input[type=file]').setInputFiles(song);
    await page.locator('.dropzone__file').waitFor();
    await page.getByRole('button', { name: 'Start', exact: true }).click();
    await page.locator('.result').waitFor({ timeout: 120_000 });
    const samples = await page.evaluate(() => {
      clearInterval(window.progressSampler);
      return window.progressSamples;
    });
    const shown = samples.map((sample) => sample.bar ?? sample.ring).filter((value) => value !== null);
    for (let i = 1; i < shown.length; i += 1) {
      assert.ok(shown[i] >= shown[i - 1], `progress went back: ${shown.slice(Math.max(0, i - 5), i + 1).join(', ')}`);
    }
    const bars = samples.filter((sample) => sample.bar !== null);
    assert.ok(bars.length > 20, `the processing bar showed for ${bars.length} samples`);
    assert.ok(bars[0].bar >= 30, `the bar took over from the ring at ${bars[0].bar} %`);
    // The job's time: from the bar's first showing to 100 % (the result), against what the bar said along the way.
    const from = bars[0].t;
    const end = bars.find((sample) => sample.bar === 100)?.t ?? samples.find((sample) => sample.result).t;
    const span = end - from;
    assert.ok(span > 2000, `a job long enough to judge its curve (${Math.round(span)} ms)`);
    // The curve, a sample a second (ms into the job: percent shown), for a failure's message: a CI log alone tells
    // which stage ran ahead.
    const curve = bars
      .filter(
        (sample, i) => i === 0 || Math.floor((sample.t - from) / 1000) > Math.floor((bars[i - 1].t - from) / 1000),
      )
      .map((sample) => `${Math.round(sample.t - from)}:${sample.bar}`)
      .join(' ');
    for (const sample of bars.filter((s) => s.t < end)) {
      const byTime = 30 + (70 * (sample.t - from)) / span;
      assert.ok(
        sample.bar <= byTime + 10,
        `${sample.bar} % shown ${Math.round(sample.t - from)} ms into a ${Math.round(span)} ms job (${Math.round(byTime)} % of its time); the curve: ${curve}`,
      );
    }
    t.diagnostic(`the curve of a ${Math.round(span)} ms job: ${curve}`);
    const atTheEnd = bars.filter((sample) => sample.t < end && sample.bar >= 99).length * 50;
    assert.ok(atTheEnd <= span * 0.2, `${atTheEnd} ms of a ${Math.round(span)} ms job at 99 %`);
    // The time left never flickers between a count and "Almost done".
    const lefts = bars.map((sample) => sample.left).filter((text) => text !== null);
    const firstAlmost = lefts.findIndex((text) => /Almost done/.test(text));
    if (firstAlmost >= 0)
      assert.ok(
        lefts.slice(firstAlmost).every((text) => /Almost done/.test(text)),
        lefts.join(' | '),
      );
  });
});
