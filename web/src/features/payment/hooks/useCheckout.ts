import { useCallback, useEffect, useRef, useState } from 'react';
import { errorBody } from '../../../lib/api';
import { errorKey } from '../../../lib/error-codes';
import { sleep } from '../../../lib/sleep';
import { useNow } from '../../../lib/useNow';
import {
  failureCode,
  type OrangeMoneyIntent,
  type IntentRequest,
  type PayPalIntent,
  useCancelOrangeMoneyMutation,
  useCancelPayPalMutation,
  useCapturePayPalMutation,
  useCreateIntentMutation,
  usePaymentStatusMutation,
} from '../api/payment';
import { declineKey } from '../model/declines';
import { availableProviders, cooldownRemaining, PAYMENT_LIMITS, startCooldown } from '../model/rules';

/** What is bought: one track's result, or a pack (plan and billing cycle), in a currency. */
export type CheckoutOrder = Omit<IntentRequest, 'provider'>;

export type CheckoutPhase = 'idle' | 'starting' | 'paypal' | 'orange' | 'capturing' | 'paid';

/**
 * How the Orange Money modal ended: closed by hand (`user`), the QR code's time ran out (`expired`), cancelled at
 * Orange Money (`cancelled`), declined (`failed`), or paid.
 */
export type OrangeOutcome = 'user' | 'expired' | 'cancelled' | 'failed' | 'paid';

/** The error banner's key for a refusal of the server. */
function paymentError(error: unknown, fallback: string): string {
  return errorKey('payment', failureCode(error), fallback);
}

export interface Checkout {
  phase: CheckoutPhase;
  /** Locks every payment action while something runs (spec §4: the global processing state). */
  busy: boolean;
  error: string | null;
  dismissError(): void;
  fail(key: string): void;
  /** Orange Money's open QR code. */
  orange: OrangeMoneyIntent | null;
  /** Seconds left before another Orange Money QR code. */
  cooldown: number;
  payWithPayPalPopup(order: CheckoutOrder): Promise<void>;
  payWithOrangeMoney(order: CheckoutOrder): Promise<void>;
  /** PayPal's JS SDK asks for an order id, then says it is approved. */
  createPayPalOrder(order: CheckoutOrder): Promise<string>;
  /**
   * Captures an approved order. `restart`: the card was declined and PayPal's own buttons let the buyer pick another
   * in the same checkout (the SDK's `actions.restart()`), so the answer asks for it instead of failing.
   */
  capturePayPal(orderId: string, options?: { restartable?: boolean }): Promise<'restart' | void>;
  /** The payer left PayPal without approving (the SDK's cancel): the payment is cancelled on the server. */
  cancelPayPal(orderId: string): Promise<void>;
  /** The Orange Money payment is known paid (the modal then shows the success 5 s before closing as paid). */
  orangePaid(): void;
  /** The Orange Money modal's outcomes (`declined`: the provider's reason for a failure, when it gave one). */
  orangeClosed(reason: OrangeOutcome, declined?: string): void;
  /** A step of the caller (a credit, the unlock) runs under the same lock. */
  run<T>(work: () => Promise<T>): Promise<T | undefined>;
  setBusy(busy: boolean): void;
}

/**
 * A payment from start to capture, with either provider (spec §4). `onPaid` gets the captured payment's id once
 * the success has been shown (5 s); errors end in the banner and unlock the panel.
 */
export function useCheckout(onPaid: (paymentId: string) => Promise<void> | void): Checkout {
  const [phase, setPhase] = useState<CheckoutPhase>('idle');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [orange, setOrange] = useState<OrangeMoneyIntent | null>(null);
  const [createIntent] = useCreateIntentMutation();
  const [capture] = useCapturePayPalMutation();
  const [cancelOrange] = useCancelOrangeMoneyMutation();
  const [cancelPayPalOrder] = useCancelPayPalMutation();
  const [askStatus] = usePaymentStatusMutation();
  const now = useNow(1000);
  const cooldown = cooldownRemaining(localStorage, now);
  const mounted = useRef(true);
  const popupWatch = useRef<ReturnType<typeof setInterval> | null>(null);
  const onPaidRef = useRef(onPaid);
  onPaidRef.current = onPaid;
  const orderRef = useRef<CheckoutOrder | null>(null);
  /**
   * A PayPal order whose card was declined, still open: paying the same thing again reopens its approval page (the
   * same checkout, another card) instead of opening a second order.
   */
  const declined = useRef<{ key: string; orderId: string; approveUrl: string } | null>(null);

  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
      if (popupWatch.current) clearInterval(popupWatch.current);
    };
  }, []);

  const fail = useCallback((key: string) => {
    if (!mounted.current) return;
    setError(key);
    setPhase('idle');
    setBusy(false);
  }, []);

  const succeed = useCallback(async (paymentId: string, delayMs: number = PAYMENT_LIMITS.successDelayMs) => {
    setPhase('paid');
    await sleep(delayMs);
    if (!mounted.current) return;
    try {
      await onPaidRef.current(paymentId);
    } finally {
      if (mounted.current) {
        setPhase('idle');
        setBusy(false);
      }
    }
  }, []);

  const cancelPayPal = useCallback(
    async (orderId: string) => {
      setPhase('capturing');
      setBusy(true);
      try {
        await cancelPayPalOrder(orderId).unwrap();
        fail('payment:errors.paypalCancelled');
      } catch (caught) {
        if (failureCode(caught) !== 'BILLING.ALREADY_PAID') return fail('payment:errors.notCompleted');
        // PayPal had the money after all (approved and captured meanwhile): the payment stands.
        const answer = await askStatus(orderId)
          .unwrap()
          .catch(() => null);
        await succeed(answer?.paymentId ?? orderId);
      }
    },
    [askStatus, cancelPayPalOrder, fail, succeed],
  );

  const capturePayPal = useCallback(
    async (orderId: string, options: { restartable?: boolean } = {}): Promise<'restart' | void> => {
      setPhase('capturing');
      setBusy(true);
      try {
        const answer = await capture(orderId).unwrap();
        if (!answer.success) return fail('payment:errors.captureFailed');
        await succeed(answer.paymentId);
      } catch (caught) {
        const code = failureCode(caught);
        if (code === 'BILLING.PAYMENT_DECLINED' && errorBody(caught)?.details?.restart === true) {
          // The order is still open: another card in the same checkout can pay it.
          setBusy(false);
          setPhase('idle');
          setError('payment:errors.declinedRetry');
          if (options.restartable) return 'restart';
          return;
        }
        // Declined for good: the provider's reason says what the payer can do (another card, a top-up).
        if (code === 'BILLING.PAYMENT_DECLINED') return fail(declineKey(errorBody(caught)?.details?.reason));
        if (code !== 'BILLING.PAYMENT_CLOSED' && code !== 'BILLING.PAYMENT_NOT_APPROVED') {
          return fail(paymentError(caught, 'payment:errors.capture'));
        }
        // PayPal's webhook may have settled the order first: its status says paid, declined or left.
        const answer = await askStatus(orderId)
          .unwrap()
          .catch(() => null);
        if (answer?.status === 'COMPLETED') return succeed(answer.paymentId ?? orderId);
        if (answer?.status === 'FAILED') return fail(declineKey(answer.reason));
        // Cancelled meanwhile (the payer's cancel reached the server first): it reads as cancelled, not as failed.
        if (answer?.status === 'CANCELLED') return fail('payment:errors.paypalCancelled');
        // Not approved: the window was closed before approving. The payment is cancelled rather than left pending.
        if (code === 'BILLING.PAYMENT_NOT_APPROVED') return cancelPayPal(orderId);
        fail('payment:errors.notCompleted');
      }
    },
    [askStatus, cancelPayPal, capture, fail, succeed],
  );

  /** A PayPal order for `order`; another provider's intent in answer is the server's bug, thrown as one. */
  const createPayPalIntent = useCallback(
    async (order: CheckoutOrder): Promise<PayPalIntent> => {
      const intent = await createIntent({ ...order, provider: 'PAYPAL' }).unwrap();
      if (intent.provider !== 'PAYPAL') throw new Error('not a PayPal order');
      return intent;
    },
    [createIntent],
  );

  const createPayPalOrder = useCallback(
    async (order: CheckoutOrder) => {
      setError(null);
      try {
        return (await createPayPalIntent(order)).orderId;
      } catch (caught) {
        fail(paymentError(caught, 'payment:errors.initiate'));
        throw caught;
      }
    },
    [createPayPalIntent, fail],
  );

  const payWithPayPalPopup = useCallback(
    async (order: CheckoutOrder) => {
      setError(null);
      setBusy(true);
      setPhase('starting');
      // Opened in the click itself, so no blocker stops it; the approval page is set once the order exists.
      const popup = window.open('', 'kora-paypal', 'popup,width=480,height=680');
      if (!popup) return fail('payment:errors.popupBlocked');
      const key = JSON.stringify(order);
      let orderId: string;
      let approveUrl: string;
      if (declined.current?.key === key) {
        ({ orderId, approveUrl } = declined.current);
      } else {
        let intent: PayPalIntent;
        try {
          intent = await createPayPalIntent(order);
        } catch (caught) {
          popup.close();
          return fail(paymentError(caught, 'payment:errors.initiate'));
        }
        orderId = intent.orderId;
        approveUrl = intent.approveUrl ?? `/sandbox/paypal/checkout?token=${encodeURIComponent(orderId)}`;
      }
      declined.current = null;
      popup.location.href = approveUrl;
      setPhase('paypal');
      // /payment/success and /payment/cancel close the popup: then the order is captured (or found not approved).
      await new Promise<void>((resolve) => {
        popupWatch.current = setInterval(() => {
          if (!popup.closed) return;
          if (popupWatch.current) clearInterval(popupWatch.current);
          popupWatch.current = null;
          resolve();
        }, 400);
      });
      if (!mounted.current) return;
      if ((await capturePayPal(orderId, { restartable: true })) === 'restart') {
        declined.current = { key, orderId, approveUrl };
      }
    },
    [capturePayPal, createPayPalIntent, fail],
  );

  const payWithOrangeMoney = useCallback(
    async (order: CheckoutOrder) => {
      setError(null);
      const left = cooldownRemaining(localStorage, Date.now());
      if (availableProviders(order.currency, left).length === 0 || order.currency !== 'XOF') {
        setError(left > 0 ? 'payment:errors.cooldown' : 'payment:errors.currency');
        return;
      }
      setBusy(true);
      setPhase('starting');
      try {
        // No cooldown yet: it starts once a payment went through (orangePaid), never for a decline, expiry or cancel.
        const intent = await createIntent({ ...order, provider: 'ORANGE_MONEY' }).unwrap();
        if (intent.provider !== 'ORANGE_MONEY') throw new Error('not an Orange Money payment');
        orderRef.current = order;
        setOrange(intent);
        setPhase('orange');
      } catch (caught) {
        fail(paymentError(caught, 'payment:errors.initiate'));
      }
    },
    [createIntent, fail],
  );

  /**
   * The cooldown before another QR code follows a payment that went through, and only such a payment: after a
   * decline, an expired QR code or a cancel, the payer may try again at once.
   */
  const orangePaid = useCallback(() => {
    startCooldown(localStorage, Date.now());
  }, []);

  const orangeClosed = useCallback(
    (reason: OrangeOutcome, declined?: string) => {
      const intent = orange;
      setOrange(null);
      if (!intent) return;
      if (reason === 'paid') {
        // The modal showed the success for its 5 s already (and started the cooldown when it saw the payment).
        void succeed(intent.paymentId, 0);
        return;
      }
      if (reason === 'failed') return fail(declineKey(declined));
      if (reason === 'expired') return fail('payment:errors.expired');
      if (reason === 'cancelled') return fail('payment:errors.cancelled');
      // Closed by the user: the payment is cancelled at the provider.
      void cancelOrange({ paymentId: intent.paymentId, trackId: orderRef.current?.trackId })
        .unwrap()
        .then(
          () => fail('payment:errors.cancelled'),
          (caught: unknown) => {
            if (failureCode(caught) !== 'BILLING.ALREADY_PAID') return fail('payment:errors.cancelOrangeMoney');
            // Paid in the meantime: the payment stands, and counts as one for the cooldown.
            orangePaid();
            void succeed(intent.paymentId);
          },
        );
    },
    [cancelOrange, fail, orange, orangePaid, succeed],
  );

  const run = useCallback(async <T>(work: () => Promise<T>) => {
    setError(null);
    setBusy(true);
    try {
      return await work();
    } finally {
      if (mounted.current) setBusy(false);
    }
  }, []);

  return {
    phase,
    busy,
    error,
    dismissError: () => setError(null),
    fail,
    orange,
    cooldown,
    payWithPayPalPopup,
    payWithOrangeMoney,
    createPayPalOrder,
    capturePayPal,
    cancelPayPal,
    orangePaid,
    orangeClosed,
    run,
    setBusy,
  };
}
