import type { ErrorCode } from '@kora/contracts';
import { type INestApplication, RequestMethod } from '@nestjs/common';
import { METHOD_METADATA, PATH_METADATA } from '@nestjs/common/constants';
import { ModulesContainer, Reflector } from '@nestjs/core';
import { type AuthenticatedUser, IS_PUBLIC } from '@kora/kernel/nest';
import type { FastifyInstance } from 'fastify';
import type { IncomingMessage } from 'node:http';
import { announcesBody } from '../http/http-pipeline';
import { RevokedSessions } from './revoked-sessions';
import { bearerToken, InvalidTokenError, TokenVerifier } from './token-verifier';

/** A route as a controller declares it: `GET /api/user/profile`, public or not. */
export interface DeclaredRoute {
  readonly method: string;
  readonly path: string;
  readonly isPublic: boolean;
}

/** The 401 every refused token gets, whoever refuses it (this hook or `AuthGuard`): it tells a prober nothing. */
export const AUTH_REQUIRED = {
  statusCode: 401,
  code: 'AUTH.REQUIRED',
  message: 'Authentication required',
} as const satisfies { statusCode: 401; code: ErrorCode; message: string };

/** Who a token checked before the body belongs to, for `AuthGuard` to take without verifying it again. */
const checkedEarly = new WeakMap<IncomingMessage, AuthenticatedUser>();

export function userCheckedBeforeBody(request: IncomingMessage): AuthenticatedUser | undefined {
  return checkedEarly.get(request);
}

/**
 * The token checked before any body is read. Nest's guards run once Fastify has parsed the body, so without this a
 * stranger could make us read (and hold the connection for) a JSON body of up to 1 MB on any guarded route. On a
 * guarded route whose request announces a body, the token is verified in `onRequest`, as the guard would: refused,
 * the answer is the guard's own 401 at once, and the pipeline discards the rest of the body within its bounds and
 * closes the connection. Accepted, the user is kept for the guard, which then checks only revocation again.
 *
 * Which routes are guarded comes from the controllers' own metadata (`@Public()`), matched against the routes
 * Fastify registered: `install` fails the start when a declared route is not among them, so the two lists cannot
 * drift apart silently. Routes no controller declares (the built-in provider's pages, the web client) are left alone.
 */
export class TokenBeforeBody {
  private guarded = new Set<string>();

  constructor(
    private readonly verifier: TokenVerifier,
    private readonly revoked: RevokedSessions,
  ) {}

  /** Adds the hook; call before the app initialises (hooks must precede the routes). */
  hook(fastify: FastifyInstance): void {
    fastify.addHook('onRequest', async (request, reply) => {
      if (!announcesBody(request.headers) || !this.guarded.has(`${request.method} ${request.routeOptions.url}`)) return;
      const user = await this.check(request.headers.authorization);
      if (user) {
        checkedEarly.set(request.raw, user);
        return;
      }
      // Returning the reply ends the request's lifecycle here: no parser, no guard, no handler.
      return reply.code(401).type('application/json; charset=utf-8').send(AUTH_REQUIRED);
    });
  }

  /** Learns the guarded routes once the app has registered them; throws when a declared route is missing. */
  install(app: INestApplication, registered: ReadonlyArray<{ method: string; path: string }>): void {
    const known = new Set(registered.map((route) => `${route.method} ${route.path}`));
    const declared = declaredRoutes(app);
    const missing = declared.filter((route) => !known.has(`${route.method} ${route.path}`));
    if (missing.length > 0) {
      throw new Error(
        `routes declared by controllers but not registered: ${missing.map((r) => `${r.method} ${r.path}`).join(', ')}`,
      );
    }
    this.guarded = new Set(declared.filter((route) => !route.isPublic).map((route) => `${route.method} ${route.path}`));
  }

  private async check(header: string | string[] | undefined): Promise<AuthenticatedUser | null> {
    const token = bearerToken(header);
    if (!token) return null;
    try {
      const user = await this.verifier.verify(token);
      return this.revoked.isRevoked(user) ? null : user;
    } catch (error) {
      if (error instanceof InvalidTokenError) return null;
      throw error;
    }
  }
}

const METHODS: Partial<Record<RequestMethod, string>> = {
  [RequestMethod.GET]: 'GET',
  [RequestMethod.POST]: 'POST',
  [RequestMethod.PUT]: 'PUT',
  [RequestMethod.DELETE]: 'DELETE',
  [RequestMethod.PATCH]: 'PATCH',
  [RequestMethod.OPTIONS]: 'OPTIONS',
  [RequestMethod.HEAD]: 'HEAD',
};

/** Every route the app's controllers declare, with the path Fastify registers it under (no global prefix here). */
export function declaredRoutes(app: INestApplication): DeclaredRoute[] {
  const reflector = app.get(Reflector);
  const routes: DeclaredRoute[] = [];
  for (const module of app.get(ModulesContainer).values()) {
    for (const wrapper of module.controllers.values()) {
      const controller = wrapper.metatype as (new (...args: never[]) => unknown) | null;
      if (!controller) continue;
      const bases = paths(Reflect.getMetadata(PATH_METADATA, controller));
      for (const [name, handler] of methods(controller.prototype as object)) {
        const requestMethod = Reflect.getMetadata(METHOD_METADATA, handler) as RequestMethod | undefined;
        if (requestMethod === undefined) continue;
        const method = METHODS[requestMethod];
        if (!method) throw new Error(`${controller.name}.${name}: a route method this check does not know`);
        const isPublic = reflector.getAllAndOverride<boolean>(IS_PUBLIC, [handler, controller]) === true;
        for (const base of bases) {
          for (const own of paths(Reflect.getMetadata(PATH_METADATA, handler))) {
            const path = `/${[base, own]
              .map((part) => part.replace(/^\/+|\/+$/g, ''))
              .filter(Boolean)
              .join('/')}`;
            routes.push({ method, path, isPublic });
          }
        }
      }
    }
  }
  return routes;
}

function paths(metadata: unknown): string[] {
  if (metadata === undefined) return ['/'];
  return Array.isArray(metadata) ? (metadata as string[]) : [String(metadata)];
}

type Handler = (...args: never[]) => unknown;

/** The methods of a controller's prototype chain, own first (a subclass's route overrides its parent's); no getter runs. */
function methods(prototype: object): Array<[string, Handler]> {
  const found = new Map<string, Handler>();
  for (let current = prototype; current && current !== Object.prototype; current = Object.getPrototypeOf(current)) {
    for (const [name, descriptor] of Object.entries(Object.getOwnPropertyDescriptors(current))) {
      if (name === 'constructor' || found.has(name) || typeof descriptor.value !== 'function') continue;
      found.set(name, descriptor.value as Handler);
    }
  }
  return [...found];
}
