import type { Request, Response, Router } from 'express';
import { normaliseEmail } from '../idp-store';
import { IDP_STRINGS } from '../locales';
import { DEVICE_COOKIE } from '../login-throttle';
import { readCookie, setPageCookie } from '../cookies';
import { alert, emailField, field, form, links } from '../pages';
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
}

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
  state: { email?: string; error?: string; notice?: string },
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
    signInPage(context, req, res, details.uid, details.params.ui_locales, { email, error }, 429);
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
