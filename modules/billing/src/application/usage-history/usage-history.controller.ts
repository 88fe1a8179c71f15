import type { UsageHistoryAnswer } from '@kora/contracts';
import { Controller, Get, Query } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import { type AuthenticatedUser, CurrentUser } from '@kora/kernel/nest';
import { ListUsage, type UsageDocument } from '../../contracts/queries';

@ApiTags('billing')
@ApiBearerAuth()
@Controller('api/subscriptions')
export class UsageHistoryController {
  constructor(private readonly queries: QueryBus) {}

  @Get('usage-history')
  @ApiOperation({
    operationId: 'SubscriptionsController_usage',
    summary: 'Credits spent, newest first: date, trackName, serviceType, trackDuration, creditsUsed',
  })
  async usage(@CurrentUser() user: AuthenticatedUser, @Query('limit') limitText?: string): Promise<UsageHistoryAnswer> {
    const limit = Math.min(1000, Math.max(1, Number.parseInt(limitText ?? '500', 10) || 500));
    const docs = await this.queries.execute<ListUsage, UsageDocument[]>(new ListUsage(user.userId, limit));
    return {
      success: true,
      history: docs.map((doc) => ({
        id: doc._id,
        date: doc.date,
        trackId: doc.trackId,
        trackName: doc.trackName,
        serviceType: doc.serviceType,
        trackDuration: doc.trackDuration,
        creditsUsed: doc.creditsUsed,
      })),
    };
  }
}
