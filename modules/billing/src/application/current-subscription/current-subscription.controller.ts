import type { CurrentSubscription, CurrentSubscriptionAnswer } from '@kora/contracts';
import { Controller, Get, Inject } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CLOCK, type Clock } from '@kora/kernel';
import { type AuthenticatedUser, CurrentUser } from '@kora/kernel/nest';
import { BILLING_SERVICES, type BillingService, PACK_SERVICES } from '../../contracts/events';
import { type CreditAccountDocument, GetCreditAccount, type PackEntry } from '../../contracts/queries';
import { packRenews } from '../../domain/credits';
import { NoSubscriptionError } from '../../domain/errors';
import { CatalogueService } from '../catalogue/catalogue.service';

const left = (pack: PackEntry): number => pack.credits - pack.used - pack.removed;

/**
 * The current subscription at `now`: active packs, credits by service, or null when no pack is active. The plan is the
 * latest pack's; it says "unlimited previews" when one of the active packs' plans promises them (`unlimitedPreview`).
 */
export function subscriptionView(
  doc: CreditAccountDocument | null,
  now: string,
  catalogue: Pick<CatalogueService, 'pack'>,
): CurrentSubscription | null {
  const active = (doc?.packs ?? []).filter((pack) => pack.startDate <= now && now < pack.endDate);
  if (active.length === 0) return null;
  const services = Object.fromEntries(
    PACK_SERVICES.map((service) => {
      const packs = active.filter((pack) => pack.service === service);
      return [
        service,
        {
          total: packs.reduce((sum, pack) => sum + pack.credits, 0),
          used: packs.reduce((sum, pack) => sum + pack.used, 0),
          remaining: packs.reduce((sum, pack) => sum + left(pack), 0),
          startDate: packs.length ? packs.map((p) => p.startDate).sort()[0]! : null,
          endDate: packs.length
            ? packs
                .map((p) => p.endDate)
                .sort()
                .at(-1)!
            : null,
        },
      ];
    }),
  ) as CurrentSubscription['services'];
  const remaining = Object.fromEntries(
    BILLING_SERVICES.map((service) => [service, service === 'AI_MIXING' ? 0 : services[service].remaining]),
  ) as Record<BillingService, number>;
  const renewing = active.filter(packRenews);
  const latest = [...active].sort((a, b) => b.startDate.localeCompare(a.startDate))[0]!;
  const totalCredits = active.reduce((sum, pack) => sum + pack.credits, 0);
  const creditsUsed = active.reduce((sum, pack) => sum + pack.used, 0);
  return {
    plan: {
      id: latest.planId,
      name: latest.planName,
      serviceType: latest.service,
      billingCycle: latest.billingCycle,
      unlimitedPreview: active.some((pack) => catalogue.pack(pack.planId)?.unlimitedPreview === true),
    },
    // Cancelled once every pack that renews was told not to; packs paid once stay active until they end.
    status: renewing.length > 0 && renewing.every((pack) => pack.renewalCancelled) ? 'cancelled' : 'active',
    totalCredits,
    creditsUsed,
    remainingCredits: active.reduce((sum, pack) => sum + left(pack), 0),
    remaining,
    startDate: active.map((p) => p.startDate).sort()[0]!,
    endDate: active
      .map((p) => p.endDate)
      .sort()
      .at(-1)!,
    services,
    activePacks: active.map((pack) => ({
      id: pack.packId,
      planId: pack.planId,
      planName: pack.planName,
      serviceType: pack.service,
      billingCycle: pack.billingCycle,
      limit: pack.credits,
      used: pack.used,
      remaining: left(pack),
      startDate: pack.startDate,
      endDate: pack.endDate,
      /** Whether it renews by itself: false for a pack paid once (every pack today). */
      renews: packRenews(pack),
      renewalCancelled: packRenews(pack) && pack.renewalCancelled,
    })),
  };
}

@ApiTags('billing')
@ApiBearerAuth()
@Controller('api/subscriptions')
export class CurrentSubscriptionController {
  constructor(
    private readonly queries: QueryBus,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly catalogue: CatalogueService,
  ) {}

  @Get('current')
  @ApiOperation({
    operationId: 'SubscriptionsController_current',
    summary: 'Active packs and credits by service; 404 BILLING.NO_SUBSCRIPTION without an active pack',
  })
  async current(@CurrentUser() user: AuthenticatedUser): Promise<CurrentSubscriptionAnswer> {
    const doc = await this.queries.execute<GetCreditAccount, CreditAccountDocument | null>(
      new GetCreditAccount(user.userId),
    );
    const subscription = subscriptionView(doc, this.clock.now().toISOString(), this.catalogue);
    if (!subscription) throw new NoSubscriptionError();
    const mastering = subscription.services.AI_MASTERING;
    return {
      success: true,
      subscription,
      masteringCounts: { total: mastering.total, used: mastering.used, remaining: mastering.remaining },
    };
  }
}
