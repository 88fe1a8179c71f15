import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, jest } from '@jest/globals';
import { fakeServer, renderRoutes } from '../../../test/fakes';
import type { Intent } from '../api/payment';
import { ErrorBanner } from './ErrorBanner';
import { OrangeMoneyModal } from './OrangeMoneyModal';
import { PaymentMethods } from './PaymentMethods';
import { COOLDOWN_KEY, PAYMENT_LIMITS } from '../model/rules';
import { type CheckoutOrder, useCheckout } from '../hooks/useCheckout';

const ORDER: CheckoutOrder = {
  paymentType: 'TRACK',
  trackId: 'track-1',
  service: 'AI_MASTERING',
  currency: 'XOF',
  planId: 'payngo-mastering',
};

const INTENT: Intent = {
  success: true,
  status: 'pending',
  paymentId: 'pay-om-1',
  provider: 'ORANGE_MONEY',
  amount: 3000,
  currency: 'XOF',
  validity: 300,
  merchantCode: '123456',
  qrCode: 'iVBORw0KGgo=',
  deepLinks: { OM: 'https://om.example/pay', MAXIT: 'https://maxit.example/pay' },
};

/** A refusal as the server sends it. */
const refusal = (status: number, code: string) => ({ status, body: { statusCode: status, code, message: code } });

/** The checkout wired as the payment panels wire it: banner, methods, and the Orange Money modal. */
function Panel({ onPaid, order = ORDER }: { onPaid(paymentId: string): void; order?: CheckoutOrder }) {
  const checkout = useCheckout(onPaid);
  return (
    <>
      <ErrorBanner error={checkout.error} onClose={checkout.dismissError} />
      <PaymentMethods checkout={checkout} order={order} amount={order.currency === 'XOF' ? 3000 : 4.99} />
      {checkout.orange && (
        <OrangeMoneyModal intent={checkout.orange} onPaid={checkout.orangePaid} onClosed={checkout.orangeClosed} />
      )}
    </>
  );
}

interface Answers {
  /** What `POST /api/payments/status` says of the payment. */
  status?: string;
  /** The provider's reason for a failure, when it gave one. */
  reason?: string;
  validity?: number;
  cancel?: { status: number; body?: unknown };
  capture?: { status: number; body?: unknown };
  order?: CheckoutOrder;
}

function setup({ status = 'PENDING', reason, validity = 300, cancel, capture, order }: Answers = {}) {
  const server = fakeServer({
    'GET /api/payments/config': () => ({
      status: 200,
      body: { paypal: { mode: 'sandbox' }, orangeMoney: { mode: 'sandbox' } },
    }),
    'POST /api/payments/createIntent': (call) =>
      (call.body as { provider: string }).provider === 'PAYPAL'
        ? { status: 200, body: { paymentId: 'pay-pp-1', provider: 'PAYPAL', amount: 4.99, orderId: 'order-1' } }
        : { status: 200, body: { ...INTENT, validity } },
    'POST /api/payments/status': () => ({
      status: 200,
      body: { status, paymentId: 'pay-om-1', ...(reason ? { reason } : {}) },
    }),
    'POST /api/payments/orange-money/pay-om-1/cancel': () =>
      cancel ?? { status: 200, body: { success: true, status: 'cancelled' } },
    'POST /api/payments/paypal/capture/order-1': () => capture ?? { status: 200, body: { success: true } },
    'POST /api/payments/paypal/order-1/cancel': () => ({ status: 200, body: { success: true, status: 'cancelled' } }),
  });
  const onPaid = jest.fn();
  renderRoutes([{ path: '/', element: <Panel onPaid={onPaid} order={order} /> }]);
  return { server, onPaid };
}

const cooldownUntil = () => localStorage.getItem(COOLDOWN_KEY);

/** Starts an Orange Money payment: the QR code shows, and no cooldown has started with it. */
async function openQrCode() {
  await userEvent.click(await screen.findByRole('button', { name: /^Pay 3,000\sFCFA with Orange Money$/ }));
  const modal = await screen.findByRole('dialog', { name: 'Pay with Orange Money' });
  expect(cooldownUntil()).toBeNull();
  return modal;
}

/** The banner's text once it shows; the Orange Money button is offered again (no cooldown). */
async function endsWith(text: string) {
  const banner = await screen.findByRole('alert', {}, { timeout: 5000 });
  expect(banner.textContent).toContain(text);
  expect(banner.textContent).not.toMatch(/failed/i);
  expect(screen.queryByRole('dialog', { name: 'Pay with Orange Money' })).toBeNull();
  expect(screen.getByRole('button', { name: /Orange Money/ })).toHaveProperty('disabled', false);
  expect(screen.queryByText(/You can start a new Orange Money payment/)).toBeNull();
  expect(cooldownUntil()).toBeNull();
}

afterEach(() => localStorage.clear());

describe('the Orange Money cooldown (spec §5: after a payment that went through, and only then)', () => {
  it('starts when the payment is seen paid, and keeps Orange Money closed afterwards', async () => {
    const { onPaid } = setup({ status: 'COMPLETED' });
    await openQrCode();
    const modal = screen.getByRole('dialog', { name: 'Pay with Orange Money' });
    await within(modal).findByText('Payment received. Thank you!', undefined, { timeout: 4000 });
    const before = Date.now();
    // Started when the payment was seen paid, not 5 s later when the modal closes.
    const until = Number(cooldownUntil());
    expect(until).toBeGreaterThan(before + (PAYMENT_LIMITS.orangeMoneyCooldownSec - 2) * 1000);
    expect(until).toBeLessThanOrEqual(before + PAYMENT_LIMITS.orangeMoneyCooldownSec * 1000);
    await waitFor(() => expect(onPaid).toHaveBeenCalledWith('pay-om-1'), { timeout: 7000 });
    expect(Number(cooldownUntil())).toBe(until);
    await screen.findByText(/You can start a new Orange Money payment in [23]:\d\d\./);
    expect(screen.queryByRole('button', { name: /Orange Money/ })).toBeNull();
  }, 15_000);

  it('does not start when the payer cancels the QR code; the panel says cancelled', async () => {
    const { server, onPaid } = setup();
    const modal = await openQrCode();
    await userEvent.click(within(modal).getByRole('button', { name: 'Cancel payment' }));
    await endsWith('Orange Money payment cancelled.');
    expect(server.calls.some((call) => call.path === '/api/payments/orange-money/pay-om-1/cancel')).toBe(true);
    expect(onPaid).not.toHaveBeenCalled();
  });

  it('does not start when the payment is cancelled from the phone; the panel says cancelled', async () => {
    const { onPaid } = setup({ status: 'CANCELLED' });
    await openQrCode();
    await endsWith('Orange Money payment cancelled.');
    expect(onPaid).not.toHaveBeenCalled();
  });

  it('does not start when the QR code expires', async () => {
    setup({ validity: 1 });
    await openQrCode();
    await endsWith('The QR code has expired. Please start the payment again.');
  });

  it('does not start when Orange Money declines the payment, and says why when Orange Money did', async () => {
    const { onPaid } = setup({ status: 'FAILED', reason: 'INSUFFICIENT_BALANCE' });
    await openQrCode();
    const banner = await screen.findByRole('alert', {}, { timeout: 5000 });
    expect(banner.textContent).toContain(
      'Your Orange Money balance is too low for this payment. Nothing was charged: top up your account, then try again.',
    );
    expect(screen.getByRole('button', { name: /Orange Money/ })).toHaveProperty('disabled', false);
    expect(cooldownUntil()).toBeNull();
    expect(onPaid).not.toHaveBeenCalled();
  });

  it('does not start when the server refuses to open the payment', async () => {
    const server = fakeServer({
      'GET /api/payments/config': () => ({
        status: 200,
        body: { paypal: { mode: 'sandbox' }, orangeMoney: { mode: 'sandbox' } },
      }),
      'POST /api/payments/createIntent': () => refusal(503, 'BILLING.PROVIDER_UNAVAILABLE'),
    });
    renderRoutes([{ path: '/', element: <Panel onPaid={jest.fn()} /> }]);
    await userEvent.click(await screen.findByRole('button', { name: /Orange Money/ }));
    await screen.findByRole('alert');
    expect(server.calls.some((call) => call.path === '/api/payments/createIntent')).toBe(true);
    expect(cooldownUntil()).toBeNull();
  });

  it('starts when a cancel finds the payment paid meanwhile (the payment stands)', async () => {
    const { onPaid } = setup({ cancel: refusal(409, 'BILLING.ALREADY_PAID') });
    const modal = await openQrCode();
    await userEvent.click(within(modal).getByRole('button', { name: 'Cancel payment' }));
    await waitFor(() => expect(cooldownUntil()).not.toBeNull());
    await screen.findByText('Payment received. Thank you!');
    await waitFor(() => expect(onPaid).toHaveBeenCalledWith('pay-om-1'), { timeout: 7000 });
  }, 15_000);
});

describe('a PayPal payment declined for good', () => {
  it('says the provider’s reason, which the payer can act on, not only "Payment failed"', async () => {
    const popup = { closed: true, close: jest.fn(), location: { href: '' } };
    const open = jest.spyOn(window, 'open').mockReturnValue(popup as unknown as Window);
    try {
      const declined = refusal(402, 'BILLING.PAYMENT_DECLINED');
      const { onPaid } = setup({
        order: { ...ORDER, currency: 'USD' },
        capture: {
          ...declined,
          body: { ...declined.body, details: { issue: 'CARD_EXPIRED', reason: 'CARD_EXPIRED' } },
        },
      });
      const pay = await screen.findByRole('button', { name: 'Pay $4.99 with PayPal or a card' });
      await waitFor(() => expect(pay).toHaveProperty('disabled', false));
      await userEvent.click(pay);
      const banner = await screen.findByRole('alert', {}, { timeout: 3000 });
      expect(banner.textContent).toContain('Your card has expired. Nothing was charged: use another card');
      expect(onPaid).not.toHaveBeenCalled();
    } finally {
      open.mockRestore();
    }
  });
});

describe('a PayPal checkout the payer left', () => {
  it('reads cancelled, not failed, when the server already has it cancelled', async () => {
    const popup = { closed: true, close: jest.fn(), location: { href: '' } };
    const open = jest.spyOn(window, 'open').mockReturnValue(popup as unknown as Window);
    try {
      const { onPaid } = setup({
        order: { ...ORDER, currency: 'USD' },
        status: 'CANCELLED',
        capture: refusal(409, 'BILLING.PAYMENT_CLOSED'),
      });
      const pay = await screen.findByRole('button', { name: 'Pay $4.99 with PayPal or a card' });
      // Enabled once the payment configuration is in.
      await waitFor(() => expect(pay).toHaveProperty('disabled', false));
      await userEvent.click(pay);
      const banner = await screen.findByRole('alert', {}, { timeout: 3000 });
      expect(banner.textContent).toContain('PayPal payment cancelled. Nothing was charged.');
      expect(onPaid).not.toHaveBeenCalled();
    } finally {
      open.mockRestore();
    }
  });
});
