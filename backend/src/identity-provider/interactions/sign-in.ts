import type { Request, Response, Router } from 'express';
import { EMAIL, normaliseEmail } from '../idp-store';
import { fill, IDP_STRINGS, type IdpLanguage } from '../locales';
import { DEVICE_COOKIE } from '../login-throttle';
import { trustDeviceMail } from '../mails';
import { readCookie, setPageCookie } from '../cookies';
import { alert, emailField, escapeHtml, field, form, links } from '../pages';
import { clientAddress, tooMany } from '../rate-limits';
import { grantConsent } from './consent';
import { formBody, handle, type InteractionContext, interactionLanguage } from './context';

/**
 * The interaction's first page (`/oidc/interaction/:uid`, where oidc-provider sends the browser) and the sign-in form
 * it shows; a consent prompt is answered at once instead (`consent.ts`).
 */
export function signInRoutes(router: Router, context: InteractionContext): void {
  router.get(
    '/interaction/:uid',
    handle((req, res) => interaction(context, req, res)),
  );
  router.post(
    '/interaction/:uid/login',
    formBody,
    handle((req, res) => signIn(context, req, res)),
  );
  router.post(
    '/interaction/:uid/trust',
    formBody,
    handle((req, res) => requestTrust(context, req, res)),
  );
  router.get(
    '/trust/:token',
    handle((req, res) => trustThisBrowser(context, req, res)),
  );
}

/** How long a link that recognises a browser works. */
const TRUST_TTL_SECONDS = 15 * 60;

async function interaction(context: InteractionContext, req: Request, res: Response): Promise<void> {
  const details = await context.provider.interactionDetails(req, res);
  if (details.prompt.name === 'consent') {
    await grantConsent(context, req, res, details);
    return;
  }
  context.pages.rememberLanguage(req, res);
  signInPage(context, req, res, details.uid, details.params.ui_locales, {});
}

function signInPage(
  context: InteractionContext,
  req: Request,
  res: Response,
  uid: string,
  uiLocales: unknown,
  state: { email?: string; error?: string; notice?: string; offerTrust?: boolean },
  status = 200,
): void {
  const language = context.pages.language(req, uiLocales);
  const t = IDP_STRINGS[language];
  const base = `/oidc/interaction/${uid}`;
  context.pages.send(
    res,
    status,
    language,
    t.signIn.title,
    alert(state.error) +
      alert(state.notice, 'notice') +
      (state.offerTrust
        ? `<p>${escapeHtml(t.signIn.trustOffer)}</p>` +
          form(
            `${base}/trust`,
            `<input type="hidden" name="email" value="${escapeHtml(state.email ?? '')}">`,
            t.signIn.trustSubmit,
          )
        : '') +
      form(
        `${base}/login`,
        emailField(t.email, state.email, { autofocus: !state.email }) +
          field({
            name: 'password',
            label: t.password,
            type: 'password',
            autocomplete: 'current-password',
            autofocus: Boolean(state.email),
          }),
        t.signIn.submit,
      ) +
      links([
        { href: `${base}/forgot`, text: t.signIn.forgot },
        { href: `${base}/signup`, text: t.signIn.create, prefix: t.signIn.noAccount },
      ]),
    `${base}?lang=${language === 'fr' ? 'en' : 'fr'}`,
  );
}

/**
 * Sign-in, throttled by progressive delays (`LOGIN_THROTTLE`) rather than lockouts: a too-early attempt gets 429
 * with Retry-After and the password is not even looked at; the right password gets in once the delay is over.
 */
async function signIn(context: InteractionContext, req: Request, res: Response): Promise<void> {
  const { details, language, t } = await interactionLanguage(context, req, res);
  const email = typeof req.body.email === 'string' ? normaliseEmail(req.body.email) : '';
  const password = typeof req.body.password === 'string' ? req.body.password : '';
  const device = context.devices.nonceFor(readCookie(req, DEVICE_COOKIE), email);
  const answer = await context.throttle.begin(email, clientAddress(req), device);
  if (!answer.attempt) {
    const error = tooMany(res, language, answer.wait);
    // Slowed down by what others did (this browser is not a recognised one): the owner can have it recognised by
    // e-mail, and then only its own failures count (`LOGIN_THROTTLE`). Offered whether or not the address has an
    // account, so the page tells nothing.
    const offerTrust = !device && EMAIL.test(email);
    signInPage(context, req, res, details.uid, details.params.ui_locales, { email, error, offerTrust }, 429);
    return;
  }
  const user = email && password ? await context.users.verifyPassword(email, password) : null;
  if (!user) {
    signInPage(context, req, res, details.uid, details.params.ui_locales, { email, error: t.signIn.invalid }, 401);
    return;
  }
  await answer.attempt.succeeded();
  // This browser is now trusted for this account: strangers' failures no longer slow it down.
  setPageCookie(
    res,
    DEVICE_COOKIE,
    device ? readCookie(req, DEVICE_COOKIE)! : context.devices.issue(email),
    context.config.secureCookies,
  );
  await context.provider.interactionFinished(
    req,
    res,
    { login: { accountId: user._id, remember: true } },
    { mergeWithLastSubmission: false },
  );
}

/**
 * "E-mail me a link for this browser": when the address has an account (the page says the same either way), a mail
 * with a single-use link valid 15 minutes (`TRUST_TTL_SECONDS`), limited per client address and per account. Sent
 * after the answer, so that neither it nor its timing tells whether the address has an account.
 */
async function requestTrust(context: InteractionContext, req: Request, res: Response): Promise<void> {
  const { details, language, t } = await interactionLanguage(context, req, res);
  const email = normaliseEmail(String(req.body.email ?? ''));
  if (!EMAIL.test(email)) {
    signInPage(context, req, res, details.uid, details.params.ui_locales, { email, error: t.errors.email }, 400);
    return;
  }
  const wait = await context.limits.trustRequest(clientAddress(req));
  if (wait > 0) {
    const error = tooMany(res, language, wait);
    signInPage(context, req, res, details.uid, details.params.ui_locales, { email, error }, 429);
    return;
  }
  context.afterAnswer.run('trust-device request', () => sendTrustLink(context, email, language));
  const notice = fill(t.trust.sent, { email });
  signInPage(context, req, res, details.uid, details.params.ui_locales, { email, notice });
}

async function sendTrustLink(context: InteractionContext, email: string, language: IdpLanguage): Promise<void> {
  const user = await context.users.findByEmail(email);
  if (!user || (await context.limits.trustMail(user._id)) > 0) return;
  const token = await context.users.issueToken(user._id, 'trust-device', TRUST_TTL_SECONDS);
  const link = `${context.config.oidc.issuer}/trust/${token}?lang=${language}`;
  await context.mailer.send(trustDeviceMail(user.email, language, user.givenName, link));
}

/**
 * The mailed link: the browser that opens it gets the account's recognised-device cookie (the one a successful
 * sign-in gives), then signs in as usual. Whoever opens it must read the owner's mail: an attacker gains nothing.
 */
async function trustThisBrowser(context: InteractionContext, req: Request, res: Response): Promise<void> {
  const { pages } = context;
  pages.rememberLanguage(req, res);
  const language = pages.language(req);
  const t = IDP_STRINGS[language];
  const again = `${context.config.publicUrl}/login`;
  const userId = await context.users.consumeToken(String(req.params.token), 'trust-device');
  const user = userId ? await context.users.findById(userId) : null;
  if (!user) {
    pages.send(
      res,
      410,
      language,
      t.trust.title,
      alert(t.trust.expired) + links([{ href: again, text: t.trust.signIn }]),
    );
    return;
  }
  setPageCookie(res, DEVICE_COOKIE, context.devices.issue(user.email), context.config.secureCookies);
  pages.send(
    res,
    200,
    language,
    t.trust.title,
    `<p>${escapeHtml(t.trust.done)}</p>` + links([{ href: again, text: t.trust.signIn }]),
  );
}
