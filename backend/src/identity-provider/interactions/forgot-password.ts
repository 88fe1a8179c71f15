import type { Request, Response, Router } from 'express';
import { EMAIL, normaliseEmail } from '../idp-store';
import { fill } from '../locales';
import { alert, emailField, escapeHtml, form, links } from '../pages';
import { clientAddress, tooMany } from '../rate-limits';
import { formRoute, type InteractionContext, interactionLanguage, interactionPage } from './context';
import { sendPasswordReset } from './reset-password';

/** Forgotten password: the form that asks for the address the reset link is mailed to (`reset-password.ts`). */
export function forgotPasswordRoutes(router: Router, context: InteractionContext): void {
  formRoute(router, context, '/interaction/:uid/forgot', forgotPage, forgot);
}

async function forgotPage(
  context: InteractionContext,
  req: Request,
  res: Response,
  state: { email?: string; notice?: string; error?: string } = {},
  status = 200,
): Promise<void> {
  const { pages } = context;
  const { language, t, base } = await interactionPage(context, req, res);
  pages.send(
    res,
    status,
    language,
    t.forgot.title,
    alert(state.error) +
      alert(state.notice, 'notice') +
      (state.notice
        ? ''
        : `<p>${escapeHtml(t.forgot.intro)}</p>` +
          form(`${base}/forgot`, emailField(t.email, state.email, { autofocus: true }), t.forgot.submit)) +
      links([{ href: base, text: t.forgot.back }]),
    pages.switchHref(req, language),
  );
}

async function forgot(context: InteractionContext, req: Request, res: Response): Promise<void> {
  const { language, t } = await interactionLanguage(context, req, res);
  const email = normaliseEmail(String(req.body.email ?? ''));
  if (!EMAIL.test(email)) return forgotPage(context, req, res, { email, error: t.errors.email }, 400);
  const wait = await context.limits.resetRequest(clientAddress(req));
  if (wait > 0) return forgotPage(context, req, res, { email, error: tooMany(res, language, wait) }, 429);
  // After the answer, so that neither it nor its timing tells whether the address has an account.
  context.afterAnswer.run('password reset request', () => sendPasswordReset(context, email, language));
  await forgotPage(context, req, res, { notice: fill(t.forgot.sent, { email }) });
}
