import type { FastifyInstance } from 'fastify';
import { SERVER_PATHS } from './http-pipeline';

/** `host[:port]` in lower case, without the scheme's default port, so `Host: localhost:80` equals `localhost`. */
function normalHost(host: string, protocol: string): string {
  const lower = host.trim().toLowerCase();
  const port = protocol === 'https:' ? ':443' : ':80';
  return lower.endsWith(port) ? lower.slice(0, -port.length) : lower;
}

/**
 * The web app has one address, PUBLIC_URL: its issuer (PUBLIC_URL/oidc), the redirect URIs registered for the web
 * client, the cookies and the Content-Security-Policy all name it. A page asked for on another host (the product
 * opened by `127.0.0.1` or the machine's name while PUBLIC_URL says `localhost`) is sent to the same path there with
 * a 302, so sign-in works from whatever address was typed. Only GET and HEAD of the web app's paths are redirected:
 * the API, the provider, Socket.IO and the metrics answer on any host, for scripts. The hosts of WEB_ORIGIN are
 * accepted as they are (their redirect URIs are registered too).
 *
 * Only the host is compared, not the scheme: behind a proxy that terminates TLS the request arrives in plain HTTP,
 * and a redirect on the scheme would loop whenever TRUST_PROXY is not set. The proxy must pass the Host header on
 * (nginx: `proxy_set_header Host $host`), or X-Forwarded-Host with TRUST_PROXY.
 */
export function redirectToPublicUrl(
  fastify: FastifyInstance,
  publicUrl: string,
  otherOrigins: readonly string[] = [],
): void {
  const canonical = new URL(publicUrl);
  const accepted = new Set(
    [canonical, ...otherOrigins.map((origin) => new URL(origin))].map((url) => normalHost(url.host, url.protocol)),
  );
  const base = publicUrl.replace(/\/+$/, '');
  fastify.addHook('onRequest', (request, reply, done) => {
    if ((request.method !== 'GET' && request.method !== 'HEAD') || plainServerPath(request.url)) return done();
    // The path and query as received (of an absolute or `//` target too): the redirect never leaves PUBLIC_URL.
    const target = URL.parse(request.url, 'http://target.invalid');
    const path = target ? `${target.pathname}${target.search}` : '';
    const host = request.host ? normalHost(request.host, canonical.protocol) : '';
    if (!target || SERVER_PATHS.test(path) || !host || accepted.has(host)) return done();
    void reply.header('Cache-Control', 'no-store').redirect(`${base}${path}`, 302);
  });
}

/**
 * A server path written plainly (`/api/...` with no dot segment, escape or backslash), which URL parsing could not
 * turn into a page's path: most requests, answered without parsing their URL.
 */
function plainServerPath(url: string): boolean {
  const end = url.indexOf('?');
  const path = end < 0 ? url : url.slice(0, end);
  return SERVER_PATHS.test(path) && !path.includes('/.') && !path.includes('%') && !path.includes('\\');
}
