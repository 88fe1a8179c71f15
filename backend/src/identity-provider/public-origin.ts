import type { Provider } from 'oidc-provider';

/**
 * Pins the built-in provider's idea of where a request arrived to PUBLIC_URL. oidc-provider (a Koa application)
 * builds every URL it announces (the discovery document's endpoints, its redirects to its own pages) from the
 * request's origin, and marks its cookies `Secure` when the request looks secure; Koa reads both from the Host
 * header (X-Forwarded-Host and -Proto when it trusts a proxy) or, for an absolute request target, from the target.
 * Overriding the request prototype of the provider's Koa application (every context, those `interactionDetails`
 * makes included, inherits from it) takes the client out of both: the endpoints are always under the issuer
 * whatever Host says, and the provider's cookies are `Secure` exactly when PUBLIC_URL is https.
 */
export function pinPublicOrigin(provider: Provider, publicUrl: string): void {
  const { origin, host, protocol } = new URL(publicUrl);
  const scheme = protocol.replace(/:$/, '');
  Object.defineProperties(provider.request, {
    protocol: { configurable: true, get: () => scheme },
    host: { configurable: true, get: () => host },
    // Koa's own getter returns an absolute request target as it came (`GET http://elsewhere/oidc/...`).
    href: {
      configurable: true,
      get(this: { originalUrl: string }) {
        const target = new URL(this.originalUrl, origin);
        return `${origin}${target.pathname}${target.search}`;
      },
    },
  });
}
