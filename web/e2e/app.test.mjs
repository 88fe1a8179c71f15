/* global window, document, getComputedStyle -- the functions given to page.evaluate run in the browser */
// The browser suite: the real server and its built-in OpenID provider, Debian's Chromium, the built client.
// Run by `npm run test:browser` (part of `npm test`), which builds the server and the client first.
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { after, before, describe, test } from 'node:test';
import {
  closeContext,
  launchBrowser,
  signInOnProvider,
  signUpOnProvider,
  startServer,
  recordFailures,
  watch,
} from './support.mjs';

recordFailures('app');

const require = createRequire(import.meta.url);
const AXE = await readFile(require.resolve('axe-core/axe.min.js'), 'utf8');

const PERSON = {
  firstName: 'Awa',
  lastName: 'Diop',
  email: `awa.diop.${Date.now()}@example.com`,
  password: 'Ndeye-Coumba-2026',
};
const WIDTHS = [375, 768, 1280];
const PAGES = [
  { path: '/', ready: 'main h1' },
  { path: '/dashboard', ready: '.dashboard h1' },
  { path: '/accountSettings?section=general', ready: 'form[data-ready]' },
  { path: '/accountSettings?section=plans', ready: '#plans-title' },
  { path: '/accountSettings?section=usage', ready: '#usage-title' },
  { path: '/accountSettings?section=payments', ready: '#payments-title' },
  { path: '/accountSettings?section=security', ready: '#security-title' },
  { path: '/no/such/page', ready: '.error-page h1' },
];

let server;
let browser;
let context;
let page;
const pageErrors = [];

const storedUser = () =>
  page.evaluate(() => {
    const key = Object.keys(localStorage).find((name) => name.startsWith('oidc.user:'));
    return key ? JSON.parse(localStorage.getItem(key)) : null;
  });

/** Axe on the current page; only serious and critical violations fail. */
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

async function horizontalOverflow() {
  return page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
}

describe('Kora in Chromium', { concurrency: false }, () => {
  before(async () => {
    server = await startServer();
    browser = await launchBrowser();
    context = watch(
      await browser.newContext({
        locale: 'en-US',
        timezoneId: 'Africa/Dakar',
        viewport: { width: 1280, height: 900 },
      }),
    );
    page = await context.newPage();
    page.setDefaultTimeout(15_000);
    page.on('pageerror', (error) => pageErrors.push(error.message));
  });

  after(async () => {
    await browser?.close();
    await server?.stop();
  });

  test('signing up through the built-in provider (and its e-mailed link) lands back on the page first asked for', async () => {
    await page.goto(`${server.baseUrl}/accountSettings?section=general`);
    await page.waitForURL(/\/oidc\/interaction\//);
    // The provider's pages speak the interface language (ui_locales).
    assert.equal(await page.getAttribute('html', 'lang'), 'en');
    await signUpOnProvider(page, server, PERSON);
    await page.waitForURL(`${server.baseUrl}/accountSettings?section=general`);
    await page.getByRole('heading', { level: 1, name: 'Account settings' }).waitFor();
    await page.locator('form[data-ready]').waitFor();
    assert.equal(await page.getByLabel('First name').inputValue(), PERSON.firstName);
    const user = await storedUser();
    assert.ok(user?.refresh_token, 'a refresh token is kept (offline_access with prompt=consent)');
    assert.equal(await page.evaluate(() => sessionStorage.getItem('returnTo')), null, 'returnTo is cleared');
  });

  test('a refused access token is renewed with the refresh token and the call retried once', async () => {
    const before = await storedUser();
    await page.evaluate(() => {
      const key = Object.keys(localStorage).find((name) => name.startsWith('oidc.user:'));
      const user = JSON.parse(localStorage.getItem(key));
      localStorage.setItem(key, JSON.stringify({ ...user, access_token: 'not-a-valid-token' }));
    });
    const refused = page.waitForResponse((r) => r.url().endsWith('/api/user/profile') && r.status() === 401);
    const renewed = page.waitForResponse((r) => r.url().endsWith('/oidc/token') && r.status() === 200);
    await page.reload();
    await refused;
    await renewed;
    await page.locator('form[data-ready]').waitFor();
    assert.equal(await page.getByLabel('First name').inputValue(), PERSON.firstName);
    const after = await storedUser();
    assert.notEqual(after.access_token, 'not-a-valid-token');
    assert.notEqual(after.refresh_token, before.refresh_token, 'refresh tokens rotate');
    assert.match(page.url(), /\/accountSettings/);
  });

  test('the profile refuses an invalid phone number, then saves a valid one', async () => {
    const puts = [];
    const onRequest = (request) => {
      if (request.method() === 'PUT' && request.url().endsWith('/api/user/profile')) puts.push(request);
    };
    page.on('request', onRequest);
    const phone = page.getByLabel('Phone number');
    await phone.fill('77 12 ab');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByText('Enter a valid phone number, for example +221771234567.').waitFor();
    assert.equal(await phone.getAttribute('aria-invalid'), 'true');
    assert.equal(await page.evaluate(() => document.activeElement?.getAttribute('name')), 'contactNumber');
    assert.equal(puts.length, 0, 'an invalid profile is not sent');

    await phone.fill('+221 77 123 45 67');
    await page
      .getByLabel('Senegal')
      .check()
      .catch(() => undefined);
    await page.getByLabel('Music producer').check();
    const saved = page.waitForResponse((r) => r.url().endsWith('/api/user/profile') && r.request().method() === 'PUT');
    await page.getByRole('button', { name: 'Save changes' }).click();
    assert.equal((await saved).status(), 200);
    await page.getByText('Your profile has been updated.').waitFor();
    page.off('request', onRequest);

    await page.reload();
    await page.locator('form[data-ready]').waitFor();
    assert.equal(await page.getByLabel('Phone number').inputValue(), '+221771234567');
    assert.equal(await page.getByLabel('Music producer').isChecked(), true);
  });

  test('switching to French changes the page, is saved on the account and survives a reload', async () => {
    const saved = page.waitForResponse((r) => r.url().endsWith('/api/user/preferences/language'));
    await page.locator('footer').getByLabel('Language').selectOption('fr');
    await page.getByRole('heading', { level: 1, name: 'Paramètres du compte' }).waitFor();
    assert.equal(await page.getAttribute('html', 'lang'), 'fr');
    assert.equal((await saved).status(), 200);

    await page.reload();
    await page.getByRole('heading', { level: 1, name: 'Paramètres du compte' }).waitFor();
    assert.equal(await page.getAttribute('html', 'lang'), 'fr');
    const language = await page.evaluate(async () => {
      const key = Object.keys(localStorage).find((name) => name.startsWith('oidc.user:'));
      const { access_token } = JSON.parse(localStorage.getItem(key));
      const response = await fetch('/api/user/preferences', { headers: { Authorization: `Bearer ${access_token}` } });
      return (await response.json()).preferences.language;
    });
    assert.equal(language, 'fr');
  });

  test('the theme toggles between dark and light and stays after a reload', async () => {
    assert.equal(await page.getAttribute('html', 'data-theme'), 'dark');
    await page.getByRole('button', { name: 'Passer au thème clair' }).click();
    assert.equal(await page.getAttribute('html', 'data-theme'), 'light');
    await page.reload();
    await page.getByRole('button', { name: 'Passer au thème sombre' }).waitFor();
    assert.equal(await page.getAttribute('html', 'data-theme'), 'light');
    const background = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    assert.equal(background, 'rgb(247, 247, 249)');
  });

  test('a notification arrives live as a toast, in French, and closing it marks it read', async () => {
    await page.goto(`${server.baseUrl}/dashboard`);
    await page.getByRole('heading', { level: 1, name: 'Tableau de bord' }).waitFor();
    await page.waitForFunction(() => document.querySelector('.bell__button') !== null);
    await server.cli('notify', [
      PERSON.email,
      '--title',
      'Your master is ready',
      '--message',
      'Listen to it now.',
      '--title-fr',
      'Votre master est prêt',
      '--message-fr',
      'Écoutez-le dès maintenant.',
    ]);
    const toast = page.locator('.notification-toast', { hasText: 'Votre master est prêt' });
    await toast.waitFor();
    await page.getByRole('button', { name: 'Notifications, 1 non lue' }).waitFor();
    const marked = page.waitForResponse((r) => /\/api\/notifications\/[^/]+\/read$/.test(r.url()));
    await toast.getByRole('button', { name: /Fermer la notification/ }).click();
    assert.equal((await marked).status(), 200);
    await toast.waitFor({ state: 'detached' });
    const bell = page.getByRole('button', { name: 'Notifications', exact: true });
    await bell.waitFor();
    await bell.click();
    const panel = page.getByRole('region', { name: 'Notifications' });
    await panel.getByText('Écoutez-le dès maintenant.').waitFor();
    assert.equal(await panel.locator('.notification__dot').count(), 0);
    await page.keyboard.press('Escape');
    assert.equal(await bell.evaluate((element) => element === document.activeElement), true);
  });

  test('every page fits 375, 768 and 1280 px without horizontal scrolling or serious axe violations', async () => {
    const problems = [];
    const check = async (label) => {
      const overflow = await horizontalOverflow();
      if (overflow > 0) problems.push(`${label}: ${overflow}px of horizontal overflow`);
      for (const violation of await seriousViolations()) problems.push(`${label}: ${violation}`);
    };
    for (const theme of ['light', 'dark']) {
      await page.evaluate((value) => localStorage.setItem('theme', value), theme);
      for (const width of theme === 'light' ? [375] : WIDTHS) {
        await page.setViewportSize({ width, height: 900 });
        for (const { path, ready } of PAGES) {
          await page.goto(`${server.baseUrl}${path}`);
          await page.locator(ready).first().waitFor();
          await page.waitForLoadState('networkidle').catch(() => undefined);
          await check(`${theme} ${width}px ${path}`);
        }
      }
    }
    // Open menus and the dialog, on a phone.
    await page.setViewportSize({ width: 375, height: 800 });
    await page.goto(`${server.baseUrl}/accountSettings?section=security`);
    await page.locator('#security-title').waitFor();
    await page.getByRole('button', { name: 'Ouvrir le menu' }).click();
    await page.getByRole('link', { name: 'Tableau de bord' }).waitFor();
    await check('375px navigation open');
    await page.getByRole('button', { name: 'Menu du compte' }).click();
    await page.getByRole('menuitem', { name: 'Se déconnecter', exact: true }).waitFor();
    await check('375px user menu open');
    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: 'Notifications', exact: true }).click();
    await check('375px bell open');
    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: 'Désactiver mon compte' }).click();
    await page.getByRole('dialog').waitFor();
    await check('375px deactivation dialog');
    await page.keyboard.press('Escape');
    assert.deepEqual(problems, []);
  });

  test('logging out from the user menu ends this session, and signing in again returns home', async () => {
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto(`${server.baseUrl}/dashboard`);
    await page.getByRole('button', { name: 'Menu du compte' }).click();
    const serverLogout = page.waitForResponse((r) => r.url().endsWith('/api/auth/logout'));
    await page.getByRole('menuitem', { name: 'Se déconnecter', exact: true }).click();
    assert.equal((await serverLogout).status(), 200);
    await page.waitForURL(/\/oidc\/interaction\//);
    assert.equal(await page.getAttribute('html', 'lang'), 'fr');
    assert.equal(await storedUser(), null);
    assert.equal(await page.evaluate(() => localStorage.getItem('language')), 'fr', 'the language choice stays');
    await signInOnProvider(page, PERSON);
    await page.waitForURL(`${server.baseUrl}/`);
    await page.getByRole('heading', { level: 1, name: `Bienvenue, ${PERSON.firstName}` }).waitFor();
  });

  test(
    'a logout on another device leaves this tab signed in; logging out on all devices takes it to sign-in at once',
    { timeout: 120_000 },
    async () => {
      const connected = page.waitForEvent('websocket', (socket) => socket.url().includes('/socket.io/'));
      await page.goto(`${server.baseUrl}/dashboard?service=STEM_SEPARATION`);
      await connected;
      await page.waitForTimeout(500); // the socket's handshake done

      // Another device signs in, then logs out: its own session ends, not this one.
      const other = watch(await browser.newContext({ locale: 'en-US' }));
      const device = await other.newPage();
      const signIn = async () => {
        await device.goto(`${server.baseUrl}/dashboard`);
        await device.waitForURL(/\/oidc\/interaction\//);
        await signInOnProvider(device, PERSON);
        await device.waitForURL(`${server.baseUrl}/dashboard`);
      };
      await signIn();
      // The account speaks French (chosen earlier): the device's menu does too.
      await device.getByRole('button', { name: 'Menu du compte' }).click();
      await device.getByRole('menuitem', { name: 'Se déconnecter', exact: true }).click();
      await device.waitForURL(/\/oidc\/interaction\//);
      await page.waitForTimeout(1500);
      assert.equal(page.url(), `${server.baseUrl}/dashboard?service=STEM_SEPARATION`, 'this tab stays where it was');
      assert.notEqual(await storedUser(), null);
      const profile = await page.evaluate(async () => {
        const key = Object.keys(localStorage).find((name) => name.startsWith('oidc.user:'));
        const token = JSON.parse(localStorage.getItem(key)).access_token;
        return (await fetch('/api/user/profile', { headers: { Authorization: `Bearer ${token}` } })).status;
      });
      assert.equal(profile, 200, "this tab's token still works");

      // Back on the other device: logging out on all devices (the menu's second item, by its call) ends this tab's
      // session too. By the call rather than the menu: the device's own redirects to sign-in would still be running
      // when its context closes.
      await signIn();
      const token = await device.evaluate(() => {
        const key = Object.keys(localStorage).find((name) => name.startsWith('oidc.user:'));
        return JSON.parse(localStorage.getItem(key)).access_token;
      });
      const ended = Date.now();
      const everywhere = await fetch(`${server.baseUrl}/api/auth/logout-everywhere`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${token}` },
      });
      assert.equal(everywhere.status, 200);
      // The socket says so: sign-in within seconds, not after the renewal frame's minute.
      await page.waitForURL(/\/oidc\/interaction\//, { timeout: 10_000 });
      process.stdout.write(
        `# session ended elsewhere: on sign-in after ${((Date.now() - ended) / 1000).toFixed(2)} s\n`,
      );
      assert.equal(await storedUser(), null);
      // The other device's session ended too: its socket takes it to sign-in as well. Closing its context while that
      // redirect commits can hang Chromium's close (`closeContext`), so it is let arrive first.
      await device.waitForURL(/\/oidc\/interaction\//, { timeout: 10_000 });
      await closeContext(other);
      await signInOnProvider(page, PERSON);
      await page.waitForURL(`${server.baseUrl}/dashboard?service=STEM_SEPARATION`);
    },
  );

  test('deactivating needs DELETE typed, signs out, and signing in within 30 days restores the account', async () => {
    await page.goto(`${server.baseUrl}/accountSettings?section=security`);
    await page.getByRole('button', { name: 'Désactiver mon compte' }).click();
    const dialog = page.getByRole('dialog', { name: 'Désactiver votre compte ?' });
    await dialog.waitFor();
    const input = dialog.getByLabel('Tapez DELETE pour confirmer');
    assert.equal(await input.evaluate((element) => element === document.activeElement), true, 'focus moves in');
    assert.equal(await dialog.getByRole('listitem').count(), 4);
    const confirm = dialog.getByRole('button', { name: 'Désactiver', exact: true });
    await input.fill('delete');
    assert.equal(await confirm.isDisabled(), true);
    await input.fill('DELETE');
    assert.equal(await confirm.isDisabled(), false);
    const deactivated = page.waitForResponse((r) => r.url().endsWith('/api/user/account/deactivate'));
    await confirm.click();
    assert.equal((await deactivated).status(), 200);
    // The sign-in page says the account is deactivated, until when, and how to restore it; then signs in on request.
    await page.getByRole('heading', { name: 'Votre compte est désactivé' }).waitFor();
    await page.getByText(/^Il sera définitivement supprimé le \d{1,2} [a-zéû.]+ \d{4}/).waitFor();
    assert.equal(await storedUser(), null);
    await page.getByRole('button', { name: 'Me reconnecter pour restaurer mon compte' }).click();
    await page.waitForURL(/\/oidc\/interaction\//);

    await signInOnProvider(page, PERSON);
    await page.waitForURL(`${server.baseUrl}/`);
    await page.getByText('Bon retour parmi nous').waitFor();
    assert.deepEqual(pageErrors, []);
  });
});

describe('Kora opened by 127.0.0.1 with no PUBLIC_URL (as after `npm start`)', { concurrency: false }, () => {
  let plain;
  let plainBrowser;
  const person = { email: `ops.${Date.now()}@example.com`, password: 'Kora-ops-2026' };

  before(async () => {
    plain = await startServer({ publicUrl: false });
    plainBrowser = await launchBrowser();
    await plain.cli('users', ['create', person.email, person.password, '--language', 'en']);
  });

  after(async () => {
    await plainBrowser?.close();
    await plain?.stop();
  });

  test('is sent to the public address, signs in there and lands on the page first asked for', async () => {
    const tab = await watch(await plainBrowser.newContext({ locale: 'en-US' })).newPage();
    tab.setDefaultTimeout(15_000);
    const errors = [];
    tab.on('pageerror', (error) => errors.push(error.message));
    const canonical = `http://localhost:${plain.port}`;
    const first = await tab.goto(`${plain.baseUrl}/dashboard`);
    assert.equal(first.request().redirectedFrom()?.url(), `${plain.baseUrl}/dashboard`);
    await tab.waitForURL(new RegExp(`^${canonical}/oidc/interaction/`));
    await signInOnProvider(tab, person);
    await tab.waitForURL(`${canonical}/dashboard`);
    await tab.locator('.dashboard h1').waitFor();
    assert.equal(await tab.getByText('Sign-in is unavailable').count(), 0);
    assert.deepEqual(errors, []);
  });
});
