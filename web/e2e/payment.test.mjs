/* global window, document -- the functions given to page.evaluate run in the browser */
// Payments in Chromium: the real server with its payment sandbox, audio made by ffmpeg, the built client.
// A pack bought through the PayPal sandbox popup and a credit spent; one track paid with Orange Money in XOF; a
// declined card; the Orange Money cooldown; plans, usage and payments with that data in English and French; a PayPal
// checkout cancelled on the sandbox page, then paid on the second try.
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { chordWav, launchBrowser, signUpOnProvider, startServer, recordFailures, watch } from './support.mjs';

recordFailures('payment');

const require = createRequire(import.meta.url);
const AXE = await readFile(require.resolve('axe-core/axe.min.js'), 'utf8');

const PERSON = {
  firstName: 'Aminata',
  lastName: 'Touré',
  email: `aminata.toure.${Date.now()}@example.com`,
  password: 'Ndeye-Coumba-2026',
};

let server;
let browser;
let page;
let media;
const songs = {};
const trackUrls = {};
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

/** No horizontal overflow and no serious axe violation at 375 px and 1280 px. */
async function checkLayout(label) {
  for (const width of [375, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    await page.waitForTimeout(150);
    assert.ok((await horizontalOverflow()) <= 0, `${label}: no horizontal overflow at ${width} px`);
    assert.deepEqual(await seriousViolations(), [], `${label}: no serious axe violation at ${width} px`);
  }
}

/** A call of the API with the page's token. */
const api = (path, method = 'GET', body) =>
  page.evaluate(
    async ([url, verb, payload]) => {
      const key = Object.keys(localStorage).find((name) => name.startsWith('oidc.user:'));
      const token = JSON.parse(localStorage.getItem(key)).access_token;
      const response = await fetch(url, {
        method: verb,
        headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
        ...(payload === undefined ? {} : { body: JSON.stringify(payload) }),
      });
      return { status: response.status, body: await response.json() };
    },
    [path, method, body],
  );

const trackIdOf = (url) => new URL(url).searchParams.get('track');

/** Uploads a song for AI mastering from the dashboard and waits for its locked result. */
async function masterSong(name) {
  await page.goto(`${server.baseUrl}/dashboard?service=AI_MASTERING`);
  await page.locator('.dropzone input[type=file]').setInputFiles(songs[name]);
  await page.locator('.dropzone__file').waitFor();
  await page.getByRole('button', { name: 'Start', exact: true }).click();
  await page.waitForURL(/[?&]track=/);
  await page.getByText('Preview ready').waitFor({ timeout: 180_000 });
  await page.locator('.payment-options').waitFor();
  trackUrls[name] = page.url();
}

/** Both WAV masters download once unlocked. */
async function downloadMaster(filename) {
  const button = page.getByRole('button', { name: 'WAV 44.1 kHz / 16-bit' });
  await page.waitForFunction(() => [...document.querySelectorAll('.downloads button')].some((b) => !b.disabled), null, {
    timeout: 30_000,
  });
  const download = page.waitForEvent('download');
  await button.click();
  const file = await download;
  assert.equal(file.suggestedFilename(), filename);
  const bytes = await readFile(await file.path());
  assert.equal(bytes.subarray(0, 4).toString('ascii'), 'RIFF');
  assert.ok(bytes.length > 100_000, 'a whole master, not a preview');
}

describe('payments in Chromium', { concurrency: false }, () => {
  before(async () => {
    media = await mkdtemp(join(tmpdir(), 'kora-payment-e2e-'));
    songs.first = chordWav(join(media, 'sunu-gaal.wav'), 14);
    songs.second = chordWav(join(media, 'yaay-boy.wav'), 13);
    songs.third = chordWav(join(media, 'dakar-night.wav'), 12);
    server = await startServer();
    browser = await launchBrowser();
    const context = watch(
      await browser.newContext({
        locale: 'en-US',
        timezoneId: 'America/New_York',
        viewport: { width: 1280, height: 900 },
        acceptDownloads: true,
      }),
    );
    page = await context.newPage();
    page.setDefaultTimeout(30_000);
    page.on('pageerror', (error) => pageErrors.push(error.message));
  });

  after(async () => {
    await browser?.close();
    await server?.stop();
    if (media) await rm(media, { recursive: true, force: true });
  });

  test('a locked result shows the payment options, accessible at 375 and 1280 px', async () => {
    await page.goto(`${server.baseUrl}/dashboard`);
    await page.waitForURL(/\/oidc\/interaction\//);
    await signUpOnProvider(page, server, PERSON);
    await page.waitForURL(`${server.baseUrl}/dashboard`);
    await masterSong('first');
    const options = page.locator('.payment-options');
    await options.getByRole('heading', { name: 'Unlock the full result' }).waitFor();
    await options.getByText('No credit left for this service.').waitFor();
    assert.equal(await page.getByRole('button', { name: 'WAV 44.1 kHz / 16-bit' }).isDisabled(), true);
    // Without credits, no "Use a credit" beside "No credit left": a link to the packs instead.
    assert.equal(await options.getByRole('button', { name: 'Use a credit' }).count(), 0);
    assert.equal(
      await options.getByRole('link', { name: 'See the packs' }).getAttribute('href'),
      '/accountSettings?section=plans&service=AI_MASTERING#plansSection',
    );
    await checkLayout('locked result');
    // The side panel for one track, in the account's currency (saved at sign-up from en-US: dollars).
    await options.getByRole('button', { name: 'Pay for this track' }).click();
    const panel = page.getByRole('dialog', { name: 'Pay for this track' });
    await panel.getByRole('button', { name: 'Pay $4.99 with PayPal or a card' }).waitFor();
    await checkLayout('single-track side panel');
    await panel.getByRole('button', { name: 'Close' }).click();
  });

  test('a pack bought with PayPal through the sandbox popup shows in plans and in the header', async () => {
    await page.goto(`${server.baseUrl}/accountSettings?section=plans&service=AI_MASTERING#plansSection`);
    const section = page.locator('#plansSection');
    await section.getByLabel('Currency').selectOption('USD');
    // Yearly: 12 months less 20 %.
    await section.getByRole('button', { name: /^Yearly/ }).click();
    await section.getByText('$191.90').waitFor();
    await section.getByRole('button', { name: 'Monthly' }).click();
    await section.getByText('$19.99').waitFor();
    await section.getByRole('button', { name: 'Buy Starter' }).click();
    const panel = page.getByRole('dialog', { name: 'Buy Starter' });
    const popupOpened = page.waitForEvent('popup');
    await panel.getByRole('button', { name: 'Pay $19.99 with PayPal or a card' }).click();
    const popup = await popupOpened;
    // /payment/success closes the popup (listened to before the click: it may close at once).
    const closed = popup.waitForEvent('close', { timeout: 15_000 });
    await popup.getByRole('button', { name: 'Approve', exact: true }).click({ noWaitAfter: true });
    await closed;
    // The order is captured, the success shown, the panel closes.
    await panel.getByText('Payment received. Thank you!').waitFor({ timeout: 15_000 });
    await panel.waitFor({ state: 'detached', timeout: 20_000 });
    await page.locator('.pack').getByText('Starter').waitFor({ timeout: 15_000 });
    await page
      .locator('.pack')
      .getByText(/5 left, 0 used of 5/)
      .waitFor();
    // The header's credits follow without a reload.
    await page.locator('.plan-status__credits').getByText('5 credits').waitFor({ timeout: 15_000 });
    await checkLayout('plans with a pack');
  });

  test('a credit unlocks the first master: thank-you banner, downloads, one credit less', async () => {
    await page.goto(trackUrls.first);
    const options = page.locator('.payment-options');
    await options.getByText('5 credits left for this service.').waitFor();
    await options.getByRole('button', { name: 'Use a credit' }).click();
    const modal = page.getByRole('dialog', { name: 'Use a credit' });
    assert.equal(await modal.locator('.warning-list li').count(), 4);
    await modal.getByRole('button', { name: 'Use a credit' }).click();
    await page.getByText('Thank you!').waitFor({ timeout: 60_000 });
    await page.getByText('Your final result is ready.').waitFor();
    await downloadMaster('sunu-gaal_master_44k.wav');
    await page.locator('.plan-status__credits').getByText('4 credits').waitFor({ timeout: 15_000 });
  });

  test('one track paid with Orange Money in XOF: QR code, paid from the phone, the master downloads', async () => {
    // The next test's song is mastered first: its check of the 180 s Orange Money cooldown then follows this payment
    // by the time of one download, not of a whole job on a loaded machine (CI stop 39 saw the cooldown over).
    await masterSong('third');
    await masterSong('second');
    await page.locator('.payment-options').getByRole('button', { name: 'Pay for this track' }).click();
    const panel = page.getByRole('dialog', { name: 'Pay for this track' });
    await panel.getByLabel('Currency').selectOption('XOF');
    assert.equal(await panel.getByRole('button', { name: /PayPal/ }).count(), 0, 'no PayPal in XOF');
    const intentAnswer = page.waitForResponse((r) => r.url().endsWith('/api/payments/createIntent'));
    await panel.getByRole('button', { name: /^Pay 3,000\sFCFA with Orange Money$/ }).click();
    const intent = await (await intentAnswer).json();
    const modal = page.getByRole('dialog', { name: 'Pay with Orange Money' });
    await modal.getByRole('img', { name: 'Orange Money QR code to scan' }).waitFor();
    assert.ok(
      await modal.getByRole('img').evaluate((img) => img.complete && img.naturalWidth > 0),
      'the QR code image decodes',
    );
    assert.equal(await modal.locator('.om-modal__merchant').innerText(), intent.merchantCode);
    assert.ok(await modal.getByRole('link', { name: 'Open Orange Money' }).getAttribute('href'));
    assert.ok(await modal.getByRole('link', { name: 'Open Max it' }).getAttribute('href'));
    assert.match(await modal.locator('.om-modal__countdown').innerText(), /This code expires in \d+:\d\d/);
    await checkLayout('Orange Money modal');
    const paid = await fetch(`${server.baseUrl}/sandbox/orange-money/payments/${intent.paymentId}/pay`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: '{}',
    });
    assert.equal(paid.status, 200);
    await modal.getByText('Payment received. Thank you!').waitFor({ timeout: 15_000 });
    await modal.waitFor({ state: 'detached', timeout: 15_000 });
    await page.getByText('Thank you!', { exact: true }).waitFor({ timeout: 60_000 });
    await downloadMaster('yaay-boy_master_44k.wav');
    const cooldown = await page.evaluate(() => Number(localStorage.getItem('orangeMoneyCooldownUntil')));
    assert.ok(cooldown > Date.now(), 'the Orange Money cooldown is kept in local storage');
  });

  test('during the cooldown Orange Money waits; a declined card reopens the same checkout for another card, unlocks nothing', async () => {
    await page.goto(trackUrls.third);
    await page.locator('.payment-options').getByRole('button', { name: 'Pay for this track' }).click();
    const panel = page.getByRole('dialog', { name: 'Pay for this track' });
    await panel.getByLabel('Currency').selectOption('XOF');
    await panel.getByText(/You can start a new Orange Money payment in [0-3]:\d\d\./).waitFor();
    assert.equal(await panel.getByRole('button', { name: /Orange Money/ }).count(), 0);
    await panel.getByLabel('Currency').selectOption('USD');
    const popupOpened = page.waitForEvent('popup');
    await panel.getByRole('button', { name: 'Pay $4.99 with PayPal or a card' }).click();
    const popup = await popupOpened;
    await popup.waitForURL(/token=/);
    const orderId = new URL(popup.url()).searchParams.get('token');
    const closed = popup.waitForEvent('close', { timeout: 15_000 });
    await popup.getByRole('button', { name: 'Approve with a card that will be declined' }).click({ noWaitAfter: true });
    await closed;
    const banner = panel.locator('.payment-banner--error');
    await banner
      .getByText('Your card was declined. Choose another card or payment method to finish paying.')
      .waitFor({ timeout: 15_000 });
    // The panel is unlocked again: paying again reopens the same order (PayPal's restart), not a second one.
    const retry = panel.getByRole('button', { name: 'Pay $4.99 with PayPal or a card' });
    assert.equal(await retry.isDisabled(), false);
    const reopened = page.waitForEvent('popup');
    await retry.click();
    const again = await reopened;
    await again.waitForURL(/token=/);
    assert.equal(new URL(again.url()).searchParams.get('token'), orderId, 'the same checkout');
    // The buyer gives up this time: the payment is cancelled, and says so.
    const closedAgain = again.waitForEvent('close', { timeout: 15_000 });
    await again.getByRole('button', { name: 'Cancel' }).click({ noWaitAfter: true });
    await closedAgain;
    await banner.getByText('PayPal payment cancelled. Nothing was charged.').waitFor({ timeout: 15_000 });
    await banner.getByRole('button', { name: 'Close' }).click();
    assert.equal(await panel.locator('.payment-banner--error').count(), 0);
    await panel.getByRole('button', { name: 'Close', exact: true }).last().click();
    const track = await api(`/api/audio/track/${trackIdOf(trackUrls.third)}`);
    assert.equal(track.body.unlocked, false);
    assert.equal(track.body.status, 'PREVIEW_READY');
    assert.equal(await page.getByRole('button', { name: 'WAV 44.1 kHz / 16-bit' }).isDisabled(), true);
  });

  test('usage and payments show that history, in English then in French', async () => {
    await page.goto(`${server.baseUrl}/accountSettings?section=usage`);
    const usage = page.locator('section[aria-labelledby=usage-title]');
    const row = usage.locator('tr', { hasText: 'sunu-gaal' });
    await row.waitFor();
    assert.match(await row.innerText(), /0:1[34]/, 'the duration as m:ss');
    await checkLayout('usage');

    await page.goto(`${server.baseUrl}/accountSettings?section=payments`);
    const payments = page.locator('section[aria-labelledby=payments-title]');
    await payments.locator('tbody tr').nth(2).waitFor();
    assert.equal(await payments.locator('tbody tr').count(), 3, 'the pack, the Orange Money track, the declined card');
    // The declined card's checkout, given up: cancelled, not failed.
    await payments.getByText('Cancelled', { exact: true }).waitFor();
    assert.equal(await payments.getByText('Failed', { exact: true }).count(), 0);
    await payments.getByRole('searchbox').fill('mobile');
    await page.waitForFunction(
      () => document.querySelectorAll('section[aria-labelledby=payments-title] tbody tr').length === 1,
    );
    assert.match(await payments.locator('tbody tr').innerText(), /3,000\sFCFA/);
    await checkLayout('payments');

    await page.locator('footer').getByLabel('Language').selectOption('fr');
    await page.getByRole('heading', { level: 1, name: 'Paramètres du compte' }).waitFor();
    await page.goto(`${server.baseUrl}/accountSettings?section=plans&service=AI_MASTERING`);
    await page.getByRole('heading', { level: 2, name: 'Offres' }).waitFor();
    await page
      .locator('.pack')
      .getByText(/4 restants?/)
      .waitFor();
    await page
      .locator('#plansSection')
      .getByRole('button', { name: /^Annuel/ })
      .waitFor();
    await checkLayout('plans in French');
    await page.goto(`${server.baseUrl}/accountSettings?section=payments`);
    await payments.getByText('Annulé', { exact: true }).waitFor();
    await payments.getByText('Mobile money').waitFor();
    await checkLayout('payments in French');
    await page.goto(`${server.baseUrl}/accountSettings?section=usage`);
    await usage.getByRole('columnheader', { name: 'Durée' }).waitFor();
    await checkLayout('usage in French');

    // The unlocked master in French: the thank-you banner speaks French too.
    await page.goto(trackUrls.first);
    await page.getByText('Merci !').waitFor();
    assert.deepEqual(pageErrors, []);
  });

  test('Cancel on the PayPal sandbox page: /payment/cancel closes the popup, the payment is cancelled, a second try pays', async () => {
    // Another account, so the history above stays as it is.
    const context = watch(
      await browser.newContext({
        locale: 'en-US',
        timezoneId: 'Africa/Dakar',
        viewport: { width: 1280, height: 900 },
      }),
    );
    const tab = await context.newPage();
    tab.setDefaultTimeout(30_000);
    const errors = [];
    tab.on('pageerror', (error) => errors.push(error.message));
    try {
      await tab.goto(`${server.baseUrl}/accountSettings?section=plans&service=AI_MASTERING#plansSection`);
      await tab.waitForURL(/\/oidc\/interaction\//);
      await signUpOnProvider(tab, server, {
        firstName: 'Moussa',
        lastName: 'Sow',
        email: `moussa.sow.${Date.now()}@example.com`,
        password: 'Thiossane-Yaay-2026',
      });
      await tab.waitForURL(/\/accountSettings/);
      const section = tab.locator('#plansSection');
      await tab.getByText('You have no active pack. Choose one below to get credits.').waitFor();
      await section.getByLabel('Currency').selectOption('USD');
      await section.getByRole('button', { name: 'Buy Starter' }).click();
      const panel = tab.getByRole('dialog', { name: 'Buy Starter' });
      const pay = panel.getByRole('button', { name: 'Pay $19.99 with PayPal or a card' });

      const popupOpened = tab.waitForEvent('popup');
      await pay.click();
      const popup = await popupOpened;
      const visited = [];
      popup.on('framenavigated', (frame) => {
        if (frame === popup.mainFrame()) visited.push(new URL(frame.url()).pathname);
      });
      await panel.getByText('Finish the payment in the PayPal window...').waitFor();
      assert.equal(await pay.isDisabled(), true, 'no second payment while the popup is open');
      // A minute: on a loaded machine the closing page's script can take long to run.
      const closed = popup.waitForEvent('close', { timeout: 60_000 });
      await popup.getByRole('button', { name: 'Cancel', exact: true }).click({ noWaitAfter: true });
      await closed;
      assert.ok(visited.includes('/payment/cancel'), `the popup went through /payment/cancel: ${visited.join(' ')}`);
      // The panel says the payment was cancelled, and lets the user pay again.
      const banner = panel.locator('.payment-banner--error');
      await banner.getByText('PayPal payment cancelled. Nothing was charged.').waitFor({ timeout: 15_000 });
      assert.equal(await panel.getByText('Payment received. Thank you!').count(), 0);
      await tab.waitForFunction(
        () => [...document.querySelectorAll('.payment-methods__paypal')].some((button) => !button.disabled),
        null,
        { timeout: 15_000 },
      );
      assert.equal(await tab.locator('.pack').count(), 0, 'a cancelled checkout grants nothing');

      const again = tab.waitForEvent('popup');
      await pay.click();
      const second = await again;
      // The first error gives way to the new attempt.
      assert.equal(await panel.locator('.payment-banner--error').count(), 0);
      const secondClosed = second.waitForEvent('close', { timeout: 60_000 });
      await second.getByRole('button', { name: 'Approve', exact: true }).click({ noWaitAfter: true });
      await secondClosed;
      await panel.getByText('Payment received. Thank you!').waitFor({ timeout: 15_000 });
      await panel.waitFor({ state: 'detached', timeout: 20_000 });
      await tab
        .locator('.pack')
        .getByText(/5 left, 0 used of 5/)
        .waitFor({ timeout: 15_000 });

      // The history: the cancelled checkout took no money and reads cancelled (not failed, nor left pending), the
      // second one is the paid pack.
      await tab.goto(`${server.baseUrl}/accountSettings?section=payments`);
      const payments = tab.locator('section[aria-labelledby=payments-title]');
      await payments.locator('tbody tr').nth(1).waitFor();
      const rows = await payments.locator('tbody tr').allInnerTexts();
      assert.equal(rows.length, 2);
      assert.equal(rows.filter((row) => /Paid/.test(row)).length, 1, rows.join(' | '));
      assert.equal(rows.filter((row) => /Cancelled/.test(row)).length, 1, rows.join(' | '));
      assert.equal(rows.filter((row) => /Failed/.test(row)).length, 0, rows.join(' | '));
      assert.equal(rows.filter((row) => /Pending/.test(row)).length, 0, rows.join(' | '));
      assert.deepEqual(errors, []);
    } finally {
      await context.close();
    }
  });
});
