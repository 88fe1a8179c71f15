import type { UnlockAnswer } from '@kora/contracts';
import { Body, Controller, HttpCode, Inject, Param, Post } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CLOCK, type Clock, IDS, type IdGenerator, ValidationFailedError } from '@kora/kernel';
import { type AuthenticatedUser, CommandContexts, CurrentUser } from '@kora/kernel/nest';
import { PaymentMismatchError, PaymentNotCapturedError, UnlockNotReadyError } from '../../domain/errors';
import { Grants } from '../grants';
import { Ledger } from '../ledger';
import { PaymentRecords } from '../payments/payment-records';
import { PaymentRefresh } from '../payments/payment-refresh';
import { UnlockTargets } from '../targets';

/**
 * `POST /api/audio/track/{id}/master`: unlocks a result with a credit of its service or with a captured payment for
 * it. Billing owns the route (it decides what pays); the audio and mixing modules unlock through their commands.
 * A mix session's id is accepted too (AI_MIXING).
 */
@ApiTags('audio')
@ApiBearerAuth()
@Controller('api/audio/track')
export class UnlockController {
  constructor(
    private readonly targets: UnlockTargets,
    private readonly ledger: Ledger,
    private readonly grants: Grants,
    private readonly records: PaymentRecords,
    private readonly refresh: PaymentRefresh,
    private readonly contexts: CommandContexts,
    @Inject(IDS) private readonly ids: IdGenerator,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  @Post(':id/master')
  @HttpCode(200)
  @ApiOperation({
    summary:
      'Unlock the full result: { credit: true } spends one credit of its service, { paymentId } uses a captured payment',
  })
  async unlock(
    @CurrentUser() user: AuthenticatedUser,
    @Param('id') id: string,
    @Body() body: { credit?: unknown; paymentId?: unknown },
  ): Promise<UnlockAnswer> {
    const byCredit = body?.credit === true || body?.credit === 'true';
    const paymentId = typeof body?.paymentId === 'string' && body.paymentId ? body.paymentId : null;
    if (byCredit === (paymentId !== null)) {
      throw new ValidationFailedError(
        { credit: 'BILLING.UNLOCK_METHOD_REQUIRED' },
        'Send either credit: true or a paymentId',
      );
    }
    const target = await this.targets.require(user.userId, id);
    if (target.unlocked) return this.answer(user.userId, id, { alreadyUnlocked: true, creditsUsed: 0 });
    if (paymentId) {
      const { paymentId: found, state } = await this.records.owned(user.userId, paymentId);
      if (state.intent!.kind !== 'TRACK' || state.intent!.trackId !== id) {
        throw new PaymentMismatchError();
      }
      if (state.status === 'pending') await this.refresh.refresh(found, state, 'status').catch(() => undefined);
      const now = await this.ledger.paymentState(found);
      if (now.status !== 'paid') {
        throw new PaymentNotCapturedError(now.status);
      }
      await this.grants.grantPayment(found);
      return this.answer(user.userId, id, { alreadyUnlocked: false, creditsUsed: 0 });
    }
    if (!target.ready) {
      throw new UnlockNotReadyError();
    }
    const { events, state } = await this.ledger.credits(
      user.userId,
      {
        type: 'SpendCredit',
        spendId: this.ids.newId(),
        service: target.service,
        trackId: id,
        trackName: target.name,
        trackDuration: target.durationSec,
        now: this.clock.now().toISOString(),
      },
      this.contexts.forUser(user.userId),
    );
    const spent = events.find((event) => event.type === 'CreditSpent');
    // Refused as paid already (a concurrent request spent the credit): the unlock names the spend that was appended.
    const spendId = spent ? spent.data.spendId : state.unlocked.get(id);
    if (!spendId) throw new Error(`credits-${user.userId}: no spend recorded for ${id}`);
    await this.grants.unlock(user.userId, target.service, id, 'credit', spendId);
    return this.answer(user.userId, id, {
      alreadyUnlocked: !spent,
      creditsUsed: spent ? 1 : 0,
      ...(spent ? { creditsRemaining: spent.data.balance } : {}),
    });
  }

  private async answer(
    userId: string,
    id: string,
    extra: Pick<UnlockAnswer, 'alreadyUnlocked' | 'creditsUsed' | 'creditsRemaining'>,
  ): Promise<UnlockAnswer> {
    const target = await this.targets.require(userId, id);
    return { success: true, trackId: id, status: target.status, unlocked: target.unlocked, ...extra };
  }
}
