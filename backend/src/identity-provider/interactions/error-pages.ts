import type { NextFunction, Request, Response } from 'express';
import type { ErrorOut, KoaContextWithOIDC } from 'oidc-provider';
import type { Logger } from 'pino';
import { IDP_STRINGS } from '../locales';
import { escapeHtml, type Pages } from '../pages';
import type { InteractionContext } from './context';

/** oidc-provider's own error page (its `renderError`): the error's description and a link back to the web client. */
export function oidcErrorPage(pages: Pages, logger: Logger) {
  return async (ctx: KoaContextWithOIDC, out: ErrorOut, error: Error): Promise<void> => {
    logger.warn({ err: error, out }, 'oidc error page');
    pages.sendToContext(ctx, (t, language) => ({
      title: t.errors.generic,
      body: `<p>${escapeHtml(String(out.error_description ?? out.error ?? ''))}</p>${pages.linkToApp(language)}`,
    }));
  };
}

/**
 * The error page of the provider's own pages, mounted after their routes: an interaction that has expired or was
 * never started is a 400 that says so, anything else a logged 500.
 */
export function pageErrorHandler(context: InteractionContext) {
  return (error: unknown, req: Request, res: Response, next: NextFunction): void => {
    if (res.headersSent) return next(error);
    const { pages, errors } = context;
    const language = pages.language(req);
    const t = IDP_STRINGS[language];
    const expired = error instanceof errors.SessionNotFound || error instanceof errors.InvalidRequest;
    if (!expired) context.logger.error({ err: error }, 'identity page failed');
    res
      .status(expired ? 400 : 500)
      .type('html')
      .send(
        pages.render(res, {
          language,
          title: expired ? t.errors.session : t.errors.generic,
          body: pages.linkToApp(language),
        }),
      );
  };
}
