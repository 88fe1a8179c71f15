import type { Request, Response, Router } from 'express';
import { type IdpUser, PASSWORD_MAX, PASSWORD_MIN } from '../idp-store';
import { IDP_STRINGS, type IdpLanguage } from '../locales';
import { passwordResetMail } from '../mails';
import { alert, field, form } from '../pages';
import { formRoute, type InteractionContext } from './context';

/** How long a reset link stays valid. */
const RESET_TTL_SECONDS = 60 * 60;

type Mailing = Pick<InteractionContext, 'config' | 'users' | 'limits' | 'mailer'>;

/** The page a mailed reset link opens, and the new password it sets. */
export function resetPasswordRoutes(router: Router, context: InteractionContext): void {
  formRoute(router, context, '/reset/:token', resetPage, reset);
}

/** A new link to the reset page for this account, or null once the account had its share of reset mails. */
export async function resetLink(context: Mailing, user: IdpUser, language: IdpLanguage): Promise<string | null> {
  if ((await context.limits.resetMail(user._id)) > 0) return null;
  const token = await context.users.issueToken(user._id, 'password-reset', RESET_TTL_SECONDS);
  return `${context.config.oidc.issuer}/reset/${token}?lang=${language}`;
}

/** Mails a reset link to the address when it has an account (and says nothing when it has none). */
export async function sendPasswordReset(context: Mailing, email: string, language: IdpLanguage): Promise<void> {
  const user = await context.users.findByEmail(email);
  if (!user) return;
  const link = await resetLink(context, user, language);
  if (!link) return;
  await context.mailer.send(passwordResetMail(user.email, language, user.givenName, link));
}

async function resetPage(
  context: InteractionContext,
  req: Request,
  res: Response,
  state: { error?: string } = {},
  status = 200,
): Promise<void> {
  const { pages } = context;
  pages.rememberLanguage(req, res);
  const language = pages.language(req);
  const t = IDP_STRINGS[language];
  const token = String(req.params.token);
  if (!(await context.users.peekToken(token, 'password-reset'))) return expired(context, res, language);
  pages.send(
    res,
    status,
    language,
    t.reset.title,
    alert(state.error) +
      form(
        `${req.baseUrl}/reset/${encodeURIComponent(token)}`,
        field({
          name: 'password',
          label: t.newPassword,
          type: 'password',
          autocomplete: 'new-password',
          hint: t.passwordHint,
          autofocus: true,
        }) + field({ name: 'confirm', label: t.confirmPassword, type: 'password', autocomplete: 'new-password' }),
        t.reset.submit,
      ),
    pages.switchHref(req, language),
  );
}

async function reset(context: InteractionContext, req: Request, res: Response): Promise<void> {
  const language = context.pages.language(req);
  const t = IDP_STRINGS[language];
  const password = String(req.body.password ?? '');
  if (password.length < PASSWORD_MIN || password.length > PASSWORD_MAX)
    return resetPage(context, req, res, { error: t.errors.passwordLength }, 400);
  if (password !== String(req.body.confirm ?? ''))
    return resetPage(context, req, res, { error: t.reset.mismatch }, 400);
  const userId = await context.users.consumeToken(String(req.params.token), 'password-reset');
  if (!userId) return expired(context, res, language);
  await context.users.setPassword(userId, password);
  // A reset signs every device out: the provider's sessions and refresh tokens, then (the accounts module) every
  // access token issued so far, before the answer.
  await context.signOutEverywhere(userId);
  context.pages.send(
    res,
    200,
    language,
    t.reset.title,
    alert(t.reset.done, 'notice') + context.pages.linkToApp(language),
  );
}

/** The answer to a reset link used, expired or unknown. */
function expired(context: InteractionContext, res: Response, language: IdpLanguage): void {
  const t = IDP_STRINGS[language];
  context.pages.send(res, 410, language, t.reset.title, alert(t.reset.expired) + context.pages.linkToApp(language));
}
