import { type IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { type CreditAccountDocument, GetCreditAccount, ListExpiringCreditAccounts } from '@kora/billing/contracts';
import { ReadStore } from '@kora/kernel';

@QueryHandler(GetCreditAccount)
export class GetCreditAccountHandler implements IQueryHandler<GetCreditAccount, CreditAccountDocument | null> {
  constructor(private readonly reads: ReadStore) {}
  execute({ userId }: GetCreditAccount): Promise<CreditAccountDocument | null> {
    return this.reads.collection<CreditAccountDocument>('credit_accounts').findById(userId);
  }
}

@QueryHandler(ListExpiringCreditAccounts)
export class ListExpiringCreditAccountsHandler implements IQueryHandler<
  ListExpiringCreditAccounts,
  CreditAccountDocument[]
> {
  constructor(private readonly reads: ReadStore) {}
  execute({ now, limit }: ListExpiringCreditAccounts): Promise<CreditAccountDocument[]> {
    return this.reads
      .collection<CreditAccountDocument>('credit_accounts')
      .find({ expiresNext: { $lte: now } }, { sort: { expiresNext: 1 }, limit });
  }
}
