import { type IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import {
  type CreditAccountDocument,
  GetCreditAccount,
  GetPayment,
  GetPaymentByCapture,
  GetPaymentByProviderRef,
  ListExpiringCreditAccounts,
  ListPayments,
  ListPendingPayments,
  ListUsage,
  type PaymentDocument,
  type PaymentPage,
  type UsageDocument,
} from '@kora/billing/contracts';
import { type Filter, findOwned, ReadStore } from '@kora/kernel';

@QueryHandler(GetPayment)
export class GetPaymentHandler implements IQueryHandler<GetPayment, PaymentDocument | null> {
  constructor(private readonly reads: ReadStore) {}
  execute({ userId, paymentId }: GetPayment): Promise<PaymentDocument | null> {
    return findOwned(this.reads.collection<PaymentDocument>('payments'), paymentId, userId);
  }
}

@QueryHandler(GetPaymentByProviderRef)
export class GetPaymentByProviderRefHandler implements IQueryHandler<GetPaymentByProviderRef, PaymentDocument | null> {
  constructor(private readonly reads: ReadStore) {}
  execute({ provider, providerRef }: GetPaymentByProviderRef): Promise<PaymentDocument | null> {
    return this.reads.collection<PaymentDocument>('payments').findOne({ provider, providerRef });
  }
}

@QueryHandler(GetPaymentByCapture)
export class GetPaymentByCaptureHandler implements IQueryHandler<GetPaymentByCapture, PaymentDocument | null> {
  constructor(private readonly reads: ReadStore) {}
  execute({ provider, captureId }: GetPaymentByCapture): Promise<PaymentDocument | null> {
    return this.reads.collection<PaymentDocument>('payments').findOne({ provider, captureId });
  }
}

@QueryHandler(ListPayments)
export class ListPaymentsHandler implements IQueryHandler<ListPayments, PaymentPage> {
  constructor(private readonly reads: ReadStore) {}
  async execute({ userId, page, limit, search }: ListPayments): Promise<PaymentPage> {
    const where: Filter = { userId };
    if (search) where.searchText = { $contains: search };
    const payments = this.reads.collection<PaymentDocument>('payments');
    const [found, total] = await Promise.all([
      payments.find(where, { sort: { createdAt: -1 }, skip: (page - 1) * limit, limit }),
      payments.count(where),
    ]);
    return { payments: found, total };
  }
}

@QueryHandler(ListPendingPayments)
export class ListPendingPaymentsHandler implements IQueryHandler<ListPendingPayments, PaymentDocument[]> {
  constructor(private readonly reads: ReadStore) {}
  execute({ before, limit }: ListPendingPayments): Promise<PaymentDocument[]> {
    return this.reads
      .collection<PaymentDocument>('payments')
      .find({ status: 'pending', createdAt: { $lte: before } }, { sort: { createdAt: 1 }, limit });
  }
}

@QueryHandler(GetCreditAccount)
export class GetCreditAccountHandler implements IQueryHandler<GetCreditAccount, CreditAccountDocument | null> {
  constructor(private readonly reads: ReadStore) {}
  execute({ userId }: GetCreditAccount): Promise<CreditAccountDocument | null> {
    return this.reads.collection<CreditAccountDocument>('credit_accounts').findById(userId);
  }
}

@QueryHandler(ListUsage)
export class ListUsageHandler implements IQueryHandler<ListUsage, UsageDocument[]> {
  constructor(private readonly reads: ReadStore) {}
  execute({ userId, limit }: ListUsage): Promise<UsageDocument[]> {
    return this.reads.collection<UsageDocument>('usage_history').find({ userId }, { sort: { date: -1 }, limit });
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
