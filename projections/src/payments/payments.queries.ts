import { type IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import {
  GetPayment,
  GetPaymentByCapture,
  GetPaymentByProviderRef,
  ListPayments,
  ListPendingPayments,
  type PaymentDocument,
  type PaymentPage,
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
