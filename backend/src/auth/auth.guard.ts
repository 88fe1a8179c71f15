import { type CanActivate, type ExecutionContext, Injectable, UnauthorizedException } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { IncomingMessage } from 'node:http';
import { type AuthenticatedUser, IS_PUBLIC } from '@kora/kernel/nest';
import { requestContext } from '../observability/request-context';
import { RevokedSessions } from './revoked-sessions';
import { AUTH_REQUIRED, userCheckedBeforeBody } from './token-before-body';
import { bearerToken, InvalidTokenError, TokenVerifier } from './token-verifier';

/**
 * Global guard: every route needs a valid bearer token unless it is marked `@Public()`. A token whose session ended
 * (logout, password reset, deactivation, purge: `RevokedSessions`) no longer counts. The answer to a missing, bad or revoked token
 * is always the same 401, so it tells a prober nothing.
 */
@Injectable()
export class AuthGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly verifier: TokenVerifier,
    private readonly revoked: RevokedSessions,
  ) {}

  /** Whether a route is public, per controller and handler: decorators do not change once the app runs. */
  private readonly publicRoutes = new WeakMap<object, WeakMap<object, boolean>>();

  async canActivate(context: ExecutionContext): Promise<boolean> {
    if (this.isPublic(context.getClass(), context.getHandler())) return true;
    const request = context.switchToHttp().getRequest<{
      headers: Record<string, string>;
      raw: IncomingMessage;
      user?: AuthenticatedUser;
    }>();
    const token = bearerToken(request.headers.authorization);
    if (!token) throw unauthorized();
    try {
      // Verified before its body was read (`TokenBeforeBody`); its session may have ended while the body came in.
      const user = userCheckedBeforeBody(request.raw) ?? (await this.verifier.verify(token));
      if (this.revoked.isRevoked(user)) throw unauthorized();
      request.user = user;
      const current = requestContext.current();
      if (current) current.userId = user.userId;
      return true;
    } catch (error) {
      if (error instanceof InvalidTokenError) throw unauthorized();
      throw error;
    }
  }

  private isPublic(
    controller: ReturnType<ExecutionContext['getClass']>,
    handler: ReturnType<ExecutionContext['getHandler']>,
  ): boolean {
    let routes = this.publicRoutes.get(controller);
    if (!routes) this.publicRoutes.set(controller, (routes = new WeakMap()));
    let isPublic = routes.get(handler);
    if (isPublic === undefined) {
      isPublic = this.reflector.getAllAndOverride<boolean>(IS_PUBLIC, [handler, controller]) === true;
      routes.set(handler, isPublic);
    }
    return isPublic;
  }
}

function unauthorized(): UnauthorizedException {
  return new UnauthorizedException({ ...AUTH_REQUIRED });
}
