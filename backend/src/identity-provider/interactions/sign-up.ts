import type { Request, Response, Router } from 'express';
import { EMAIL, normaliseEmail, PASSWORD_MAX, PASSWORD_MIN } from '../idp-store';
import { fill } from '../locales';
import { emailVerificationMail, signUpAttemptMail } from '../mails';
import { alert, emailField, field, form, links } from '../pages';
import { clientAddress, tooMany } from '../rate-limits';
import { formRoute, type InteractionContext, interactionLanguage, interactionPage } from './context';
import { resetLink } from './reset-password';

/** How long the link that creates the account stays valid. */
const VERIFY_TTL_SECONDS = 24 * 60 * 60;

/** Creating an account: the form, then the mail whose link creates it (`confirm-email.ts`). */
export function signUpRoutes(router: Router, context: InteractionContext): void {
  formRoute(router, context, '/interaction/:uid/signup', signUpPage, signUp);
}

async function signUpPage(
  context: InteractionContext,
  req: Request,
  res: Response,
  state: { values?: Record<string, string>; errors?: Record<string, string>; error?: string } = {},
  status = 200,
): Promise<void> {
  const { pages } = context;
  const { language, t, base } = await interactionPage(context, req, res);
  const v = state.values ?? {};
  const e = state.errors ?? {};
  pages.send(
    res,
    status,
    language,
    t.signUp.title,
    alert(state.error) +
      form(
        `${base}/signup`,
        `<div class="row"><div>${field({ name: 'firstName', label: t.firstName, type: 'text', autocomplete: 'given-name', value: v.firstName ?? '', error: e.firstName, autofocus: true })}</div><div>${field({ name: 'lastName', label: t.lastName, type: 'text', autocomplete: 'family-name', value: v.lastName ?? '', error: e.lastName })}</div></div>` +
          emailField(t.email, v.email, { error: e.email }) +
          field({
            name: 'password',
            label: t.password,
            type: 'password',
            autocomplete: 'new-password',
            hint: t.passwordHint,
            error: e.password,
          }),
        t.signUp.submit,
      ) +
      links([{ href: base, text: t.signUp.signIn, prefix: t.signUp.haveAccount }]),
    pages.switchHref(req, language),
  );
}

/**
 * Creates an account, or rather asks the address to confirm it: the answer (a "check your e-mail" page) and its
 * timing are the same whether or not the address already has an account, so it tells nothing. A new address gets
 * the link that creates the account; the owner of a known one gets a warning with a reset link instead.
 */
async function signUp(context: InteractionContext, req: Request, res: Response): Promise<void> {
  const { users, mailer } = context;
  const { details, language, t } = await interactionLanguage(context, req, res);
  const values = {
    firstName: String(req.body.firstName ?? '').trim(),
    lastName: String(req.body.lastName ?? '').trim(),
    email: normaliseEmail(String(req.body.email ?? '')),
  };
  const password = String(req.body.password ?? '');
  const fieldErrors: Record<string, string> = {};
  if (!values.firstName) fieldErrors.firstName = t.errors.required;
  if (!values.lastName) fieldErrors.lastName = t.errors.required;
  if (!EMAIL.test(values.email)) fieldErrors.email = t.errors.email;
  if (password.length < PASSWORD_MIN || password.length > PASSWORD_MAX) fieldErrors.password = t.errors.passwordLength;
  if (Object.keys(fieldErrors).length > 0) return signUpPage(context, req, res, { values, errors: fieldErrors }, 400);
  const wait = await context.limits.signUp(clientAddress(req));
  if (wait > 0) return signUpPage(context, req, res, { values, error: tooMany(res, language, wait) }, 429);
  // Both paths hash the password and look the address up before answering; the rest happens after.
  const passwordHash = await users.hashPassword(password);
  const existing = await users.findByEmail(values.email);
  if (existing) {
    context.afterAnswer.run('sign-up attempt warning', async () => {
      const link = await resetLink(context, existing, existing.locale);
      if (link) await mailer.send(signUpAttemptMail(existing.email, existing.locale, existing.givenName, link));
    });
  } else {
    context.afterAnswer.run('sign-up confirmation', async () => {
      const token = await users.issueSignUpToken(
        {
          email: values.email,
          passwordHash,
          givenName: values.firstName,
          familyName: values.lastName,
          locale: language,
        },
        VERIFY_TTL_SECONDS,
      );
      const link = `${context.config.oidc.issuer}/verify/${token}?lang=${language}`;
      await mailer.send(emailVerificationMail(values.email, language, values.firstName, link));
    });
  }
  context.pages.send(
    res,
    200,
    language,
    t.signUp.checkTitle,
    alert(fill(t.signUp.sent, { email: values.email }), 'notice') +
      links([{ href: `/oidc/interaction/${details.uid}`, text: t.signUp.signIn, prefix: t.signUp.haveAccount }]),
  );
}
