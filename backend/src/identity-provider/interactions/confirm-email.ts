import type { Request, Response, Router } from 'express';
import { IDP_STRINGS } from '../locales';
import { links } from '../pages';
import { handle, type InteractionContext } from './context';

/** The link mailed at sign-up: it creates the account (or confirms the address of an older one). */
export function confirmEmailRoutes(router: Router, context: InteractionContext): void {
  router.get(
    '/verify/:token',
    handle((req, res) => verify(context, req, res)),
  );
}

async function verify(context: InteractionContext, req: Request, res: Response): Promise<void> {
  const { pages, users, config } = context;
  pages.rememberLanguage(req, res);
  const language = pages.language(req);
  const t = IDP_STRINGS[language];
  const signUp = await users.completeSignUp(String(req.params.token));
  if (signUp) {
    const signIn = links([{ href: `${config.publicUrl}/login`, text: t.verify.signIn }]);
    if ('taken' in signUp) return pages.send(res, 200, language, t.verify.taken, signIn);
    return pages.send(res, 200, language, t.verify.created, signIn);
  }
  // A link mailed before sign-ups waited for their confirmation: it confirms an existing user's address.
  const userId = await users.consumeToken(String(req.params.token), 'email-verification');
  if (userId) await users.markEmailVerified(userId);
  pages.send(
    res,
    userId ? 200 : 410,
    language,
    userId ? t.verify.done : t.verify.expired,
    links([{ href: `${config.publicUrl}/`, text: t.reset.toApp }]),
  );
}
