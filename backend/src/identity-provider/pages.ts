import type { Request, Response } from 'express';
import { randomBytes } from 'node:crypto';
import type { KoaContextWithOIDC } from 'oidc-provider';
import type { Config } from '../config/config';
import { readCookie, setPageCookie } from './cookies';
import { fill, IDP_STRINGS, type IdpLanguage, type IdpStrings, pickLanguage } from './locales';

/** The language chosen with `?lang=` on an earlier page. */
export const LANG_COOKIE = 'kora_lang';

/** Escapes text for HTML element and attribute content. */
export function escapeHtml(value: string): string {
  return value.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!,
  );
}

const STYLE = `
:root{--bg:#0f1115;--surface:#181b22;--text:#f2f3f5;--muted:#a4a9b6;--accent:#f5a524;--danger:#ef5b5b;--ok:#3ccf91;color-scheme:dark;font-family:Inter,system-ui,-apple-system,'Segoe UI',Roboto,sans-serif}
*{box-sizing:border-box}body{margin:0;min-height:100vh;display:flex;align-items:center;justify-content:center;background:var(--bg);color:var(--text);padding:1rem}
main{width:100%;max-width:420px;background:var(--surface);border-radius:16px;padding:2rem 1.75rem}
.brand{display:flex;align-items:center;gap:.6rem;font-weight:700;font-size:1.3rem;margin-bottom:.25rem}
.brand svg{width:36px;height:36px}.tagline{color:var(--muted);margin:0 0 1.5rem;font-size:.95rem}
h1{font-size:1.35rem;margin:0 0 1.25rem}p{line-height:1.5}
label{display:block;font-size:.9rem;margin:1rem 0 .35rem;color:var(--muted)}
input{width:100%;padding:.75rem .85rem;border-radius:10px;border:1px solid #343a46;background:var(--bg);color:var(--text);font-size:1rem}
input:focus{outline:2px solid var(--accent);outline-offset:1px}
.row{display:flex;gap:.75rem}.row>div{flex:1}
button{width:100%;margin-top:1.5rem;padding:.85rem;border:0;border-radius:999px;background:var(--accent);color:#111;font-weight:700;font-size:1rem;cursor:pointer}
.hint{font-size:.8rem;color:var(--muted);margin:.35rem 0 0}
.field-error{color:var(--danger);font-size:.85rem;margin:.35rem 0 0}
.alert{padding:.75rem 1rem;border-radius:10px;margin:0 0 1rem;border-left:4px solid var(--danger);background:#2a1d1f}
.notice{border-left-color:var(--ok);background:#1b2a23}
.links{margin-top:1.25rem;font-size:.92rem;color:var(--muted);display:flex;flex-direction:column;gap:.5rem;align-items:center}
a{color:var(--accent)}.lang{position:fixed;top:1rem;right:1rem;font-size:.9rem}
@media (max-width:576px){main{padding:1.5rem 1.1rem}.row{flex-direction:column;gap:0}}
`;

const LOGO = `<svg viewBox="0 0 64 64" aria-hidden="true"><rect width="64" height="64" rx="14" fill="#f5a524"/><path d="M20 14v36M20 32l18-18M24 30l16 20" stroke="#0f1115" stroke-width="7" stroke-linecap="round" fill="none"/></svg>`;

export interface PageOptions {
  language: IdpLanguage;
  title: string;
  body: string;
  /** Where the language switch points (the same page in the other language). */
  switchHref?: string;
  /** Extra attributes for a page that submits itself (logout). */
  autoSubmit?: boolean;
}

export function page({ language, title, body, switchHref, autoSubmit }: PageOptions): string {
  const t = IDP_STRINGS[language];
  const other = language === 'fr' ? 'en' : 'fr';
  const script = autoSubmit ? `<script nonce="__NONCE__">document.forms[0] && document.forms[0].submit()</script>` : '';
  return `<!doctype html>
<html lang="${language}">
<head>
<meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<meta name="robots" content="noindex"><title>${escapeHtml(title)} · Kora</title>
<style nonce="__NONCE__">${STYLE}</style>
</head>
<body>
${switchHref ? `<a class="lang" href="${escapeHtml(switchHref)}" hreflang="${other}" lang="${other}">${t.switchLanguage}</a>` : ''}
<main>
<div class="brand">${LOGO}<span>${t.brand}</span></div>
<p class="tagline">${t.tagline}</p>
<h1>${escapeHtml(title)}</h1>
${body}
</main>
${script}
</body>
</html>`;
}

export interface FieldSpec {
  name: string;
  label: string;
  type: 'text' | 'email' | 'password';
  value?: string;
  autocomplete: string;
  error?: string | undefined;
  hint?: string;
  autofocus?: boolean;
}

export function field(spec: FieldSpec): string {
  const id = `f-${spec.name}`;
  const describedBy = [spec.hint ? `${id}-hint` : '', spec.error ? `${id}-error` : ''].filter(Boolean).join(' ');
  return `<label for="${id}">${escapeHtml(spec.label)}</label>
<input id="${id}" name="${spec.name}" type="${spec.type}" autocomplete="${spec.autocomplete}" required${
    spec.value ? ` value="${escapeHtml(spec.value)}"` : ''
  }${spec.autofocus ? ' autofocus' : ''}${spec.error ? ' aria-invalid="true"' : ''}${
    describedBy ? ` aria-describedby="${describedBy}"` : ''
  }>${spec.hint ? `<p class="hint" id="${id}-hint">${escapeHtml(spec.hint)}</p>` : ''}${
    spec.error ? `<p class="field-error" id="${id}-error">${escapeHtml(spec.error)}</p>` : ''
  }`;
}

/** The e-mail address field of the sign-in, sign-up and forgotten-password forms. */
export function emailField(
  label: string,
  value: string | undefined,
  more: Pick<FieldSpec, 'error' | 'autofocus'> = {},
): string {
  return field({ name: 'email', label, type: 'email', autocomplete: 'email', value: value ?? '', ...more });
}

export function alert(message: string | undefined, kind: 'error' | 'notice' = 'error'): string {
  if (!message) return '';
  return `<div class="alert${kind === 'notice' ? ' notice' : ''}" role="${kind === 'error' ? 'alert' : 'status'}">${escapeHtml(message)}</div>`;
}

export function form(action: string, inner: string, submit: string): string {
  return `<form method="post" action="${escapeHtml(action)}" novalidate>${inner}<button type="submit">${escapeHtml(submit)}</button></form>`;
}

export function links(items: Array<{ href: string; text: string; prefix?: string }>): string {
  return `<div class="links">${items
    .map(
      (item) =>
        `<span>${item.prefix ? `${escapeHtml(item.prefix)} ` : ''}<a href="${escapeHtml(item.href)}">${escapeHtml(item.text)}</a></span>`,
    )
    .join('')}</div>`;
}

/**
 * What every page of the provider does with its request and response: picks the language, sends the page with a
 * fresh CSP nonce, points the language switch at the same page. The pages' own routes are Express's; the pages
 * oidc-provider renders itself (logout, its errors) come with a Koa context.
 */
export class Pages {
  constructor(private readonly config: Pick<Config, 'publicUrl' | 'WEB_ORIGIN' | 'secureCookies'>) {}

  /** Renders a page with a fresh CSP nonce for its inline style and script. */
  render(target: KoaContextWithOIDC | Response, options: PageOptions): string {
    const nonce = randomBytes(16).toString('base64');
    const csp = `default-src 'self'; style-src 'nonce-${nonce}'; script-src 'nonce-${nonce}'; img-src 'self' data:; form-action 'self' ${[
      this.config.publicUrl,
      ...this.config.WEB_ORIGIN,
    ].join(' ')}; frame-ancestors 'none'; base-uri 'none'`;
    if ('set' in target && typeof (target as KoaContextWithOIDC).set === 'function' && 'oidc' in target) {
      (target as KoaContextWithOIDC).set('Content-Security-Policy', csp);
    } else {
      (target as Response).setHeader('Content-Security-Policy', csp);
    }
    return page(options).replaceAll('__NONCE__', nonce);
  }

  /** Answers one of the pages oidc-provider renders itself (its Koa context) with a page in the context's language. */
  sendToContext(
    ctx: KoaContextWithOIDC,
    content: (t: IdpStrings, language: IdpLanguage) => Omit<PageOptions, 'language'>,
  ): void {
    const language = contextLanguage(ctx);
    const options = content(IDP_STRINGS[language], language);
    ctx.type = 'html';
    ctx.body = this.render(ctx, { language, ...options });
  }

  /** Answers with a page, never cached. */
  send(
    res: Response,
    status: number,
    language: IdpLanguage,
    title: string,
    bodyHtml: string,
    switchHref?: string,
  ): void {
    res.status(status).type('html').setHeader('Cache-Control', 'no-store');
    res.send(this.render(res, { language, title, body: bodyHtml, ...(switchHref ? { switchHref } : {}) }));
  }

  /** `?lang=`, then the client's `ui_locales`, then the language cookie, then Accept-Language. */
  language(req: Request, uiLocales?: unknown): IdpLanguage {
    const chosen = typeof req.query.lang === 'string' ? req.query.lang : undefined;
    return pickLanguage(
      chosen,
      typeof uiLocales === 'string' ? uiLocales : undefined,
      req.cookies?.[LANG_COOKIE] ?? readCookie(req, LANG_COOKIE),
      req.get('accept-language'),
    );
  }

  /** Remembers an explicit language choice (?lang=) for the next pages. */
  rememberLanguage(req: Request, res: Response): void {
    if (req.query.lang === 'en' || req.query.lang === 'fr') {
      setPageCookie(res, LANG_COOKIE, req.query.lang, this.config.secureCookies);
    }
  }

  /** The same page in the other language. */
  switchHref(req: Request, language: IdpLanguage): string {
    return `${req.baseUrl}${req.path}?lang=${language === 'fr' ? 'en' : 'fr'}`;
  }

  /** The link back to the web client's sign-in, under a page that ends a flow or failed. */
  linkToApp(language: IdpLanguage): string {
    return links([{ href: `${this.config.publicUrl}/login`, text: IDP_STRINGS[language].reset.toApp }]);
  }
}

/** The language of a page oidc-provider renders: the language cookie, then Accept-Language. */
function contextLanguage(ctx: KoaContextWithOIDC): IdpLanguage {
  return pickLanguage(undefined, ctx.cookies.get(LANG_COOKIE), ctx.get('accept-language'));
}

export { fill };
