import { type CanActivate, type ExecutionContext, Injectable, SetMetadata } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { QueryBus } from '@nestjs/cqrs';
import type { AuthenticatedUser } from '@kora/kernel/nest';
import { GetProfile, type ProfileDocument } from '../../contracts/queries';
import { AccountDeactivatedError } from '../../domain/errors';

const DECIDES_ON_ACCOUNT_STATE = 'kora:decidesOnAccountState';

/**
 * Marks a controller whose own decisions take the account's state into account (the identity routes: signing up
 * again reactivates, logging out works on any account, a profile change refuses a deactivated one itself).
 */
export const DecidesOnAccountState = (): ClassDecorator => SetMetadata(DECIDES_ON_ACCOUNT_STATE, true);

/** Methods that read only. */
const READS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Global guard, after the token's: a deactivated account (scheduled for deletion) changes nothing and spends nothing
 * until it is reactivated, by signing in again within the window (403 `ACCOUNT.DEACTIVATED`). It may still read:
 * its tracks, its payments, its data export. One read of the profile read model per state-changing request; an
 * account not registered yet goes on (sign-up is what registers it).
 */
@Injectable()
export class ActiveAccountGuard implements CanActivate {
  private readonly exempt = new WeakMap<object, boolean>();

  constructor(
    private readonly reflector: Reflector,
    private readonly queries: QueryBus,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    if (context.getType() !== 'http') return true;
    const request = context.switchToHttp().getRequest<{ method: string; user?: AuthenticatedUser }>();
    // Public routes (webhooks, the payment sandbox's pages) have no caller; reads change nothing.
    if (!request.user || READS.has(request.method)) return true;
    if (this.isExempt(context.getClass())) return true;
    const profile = await this.queries.execute<GetProfile, ProfileDocument | null>(new GetProfile(request.user.userId));
    if (profile?.status === 'deactivated') throw new AccountDeactivatedError();
    return true;
  }

  private isExempt(controller: ReturnType<ExecutionContext['getClass']>): boolean {
    let exempt = this.exempt.get(controller);
    if (exempt === undefined) {
      exempt = this.reflector.get<boolean>(DECIDES_ON_ACCOUNT_STATE, controller) === true;
      this.exempt.set(controller, exempt);
    }
    return exempt;
  }
}
