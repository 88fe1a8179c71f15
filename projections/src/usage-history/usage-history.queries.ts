import { type IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { ListUsage, type UsageDocument } from '@kora/billing/contracts';
import { ReadStore } from '@kora/kernel';

@QueryHandler(ListUsage)
export class ListUsageHandler implements IQueryHandler<ListUsage, UsageDocument[]> {
  constructor(private readonly reads: ReadStore) {}
  execute({ userId, limit }: ListUsage): Promise<UsageDocument[]> {
    return this.reads.collection<UsageDocument>('usage_history').find({ userId }, { sort: { date: -1 }, limit });
  }
}
