import { Injectable } from '@nestjs/common';
import type { CommandContext } from '@kora/kernel';
import { AccountCommands } from '../accounts/account-commands';

/**
 * Restores an account scheduled for deletion when its owner signs in again within 30 days (`AccountReactivated`);
 * after them the account is gone (`AccountDeletedError`, 410). Called by sign-up on every sign-in: an account that is not
 * deactivated is left as it is.
 */
@Injectable()
export class ReactivateAccountService {
  constructor(private readonly accounts: AccountCommands) {}

  /** True when the account was deactivated and is active again now. */
  async reactivate(userId: string, context: CommandContext): Promise<boolean> {
    const { events } = await this.accounts.execute(
      userId,
      { type: 'ReactivateAccount', now: context.clock.now() },
      context,
    );
    return events.some((event) => event.type === 'AccountReactivated');
  }
}
