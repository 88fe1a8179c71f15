import { createParamDecorator, type ExecutionContext, SetMetadata } from '@nestjs/common';

/** The signed-in caller, as the bearer token proved it. */
export interface AuthenticatedUser {
  readonly userId: string;
  readonly email?: string;
  readonly claims: Readonly<Record<string, unknown>>;
}

export const IS_PUBLIC = 'kora:isPublic';

/** Marks a route as reachable without a bearer token. Use deliberately: every other /api route requires one. */
export const Public = (): MethodDecorator & ClassDecorator => SetMetadata(IS_PUBLIC, true);

/** Injects the authenticated caller into a controller method. */
export const CurrentUser = createParamDecorator((_: unknown, context: ExecutionContext): AuthenticatedUser => {
  const request = context.switchToHttp().getRequest<{ user?: AuthenticatedUser }>();
  if (!request.user) throw new Error('CurrentUser used on a public route');
  return request.user;
});
