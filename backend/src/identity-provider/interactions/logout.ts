import type { KoaContextWithOIDC } from 'oidc-provider';
import { escapeHtml, links, type Pages } from '../pages';

/**
 * RP-initiated logout's two pages, which oidc-provider renders itself (its `rpInitiatedLogout` feature): the
 * confirmation, submitted at once by script (a button without it), and the page after.
 */
export function logoutPages(pages: Pages, publicUrl: string) {
  return {
    logoutSource: async (ctx: KoaContextWithOIDC, formHtml: string) => {
      pages.sendToContext(ctx, (t) => ({
        title: t.logout.title,
        body: `${formHtml.replace('<form', '<form hidden')}<noscript><form method="post" action="${escapeHtml(
          ctx.oidc.urlFor('end_session_confirm'),
        )}"><input type="hidden" name="xsrf" value="${escapeHtml(
          /name="xsrf" value="([^"]+)"/.exec(formHtml)?.[1] ?? '',
        )}"><input type="hidden" name="logout" value="yes"><button>${t.logout.continue}</button></form></noscript>`,
        autoSubmit: true,
      }));
    },
    postLogoutSuccessSource: async (ctx: KoaContextWithOIDC) => {
      pages.sendToContext(ctx, (t) => ({
        title: t.logout.done,
        body: links([{ href: `${publicUrl}/login`, text: t.logout.again }]),
      }));
    },
  };
}
