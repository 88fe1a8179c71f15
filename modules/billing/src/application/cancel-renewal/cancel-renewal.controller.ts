import type { CancelRenewalAnswer } from '@kora/contracts';
import { Body, Controller, HttpCode, Inject, Post } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CLOCK, type Clock, ValidationFailedError } from '@kora/kernel';
import { type AuthenticatedUser, CommandContexts, CurrentUser } from '@kora/kernel/nest';
import { type CreditAccountDocument, GetCreditAccount } from '../../contracts/queries';
import { subscriptionView } from '../current-subscription/current-subscription.controller';
import { CatalogueService } from '../catalogue/catalogue.service';
import { Ledger } from '../ledger';

@ApiTags('billing')
@ApiBearerAuth()
@Controller('api/subscriptions')
export class CancelRenewalController {
  constructor(
    private readonly queries: QueryBus,
    private readonly ledger: Ledger,
    private readonly contexts: CommandContexts,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly catalogue: CatalogueService,
  ) {}

  @Post('cancel')
  @HttpCode(200)
  @ApiOperation({
    operationId: 'SubscriptionsController_cancel',
    summary:
      'Stop the renewal of one pack (`packId`); its credits stay usable until its end date. A pack paid once ' +
      '(every pack today) does not renew: 409 BILLING.PACK_NOT_RENEWING',
  })
  async cancel(
    @CurrentUser() user: AuthenticatedUser,
    @Body() body: { packId?: unknown } | undefined,
  ): Promise<CancelRenewalAnswer> {
    const packId = body?.packId;
    if (typeof packId !== 'string' || !packId.trim()) {
      throw new ValidationFailedError({ packId: 'BILLING.PACK_REQUIRED' }, 'A pack is required.');
    }
    await this.ledger.credits(
      user.userId,
      { type: 'CancelRenewal', packId, now: this.clock.now().toISOString() },
      this.contexts.forUser(user.userId),
    );
    const doc = await this.queries.execute<GetCreditAccount, CreditAccountDocument | null>(
      new GetCreditAccount(user.userId),
    );
    return { success: true, subscription: subscriptionView(doc, this.clock.now().toISOString(), this.catalogue) };
  }
}
