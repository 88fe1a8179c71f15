import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, jest } from '@jest/globals';
import { fakeServer, renderRoutes } from '../../../test/fakes';
import type { OrangeMoneyIntent } from '../api/payment';
import { OrangeMoneyModal } from './OrangeMoneyModal';

const INTENT: OrangeMoneyIntent = {
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

function setup(status: string, intent: Partial<OrangeMoneyIntent> = {}) {
  const server = fakeServer({
    'POST /api/payments/status': () => ({ status: 200, body: { status, paymentId: 'pay-om-1' } }),
  });
  const onPaid = jest.fn();
  const onClosed = jest.fn();
  renderRoutes([
    {
      path: '/',
      element: <OrangeMoneyModal intent={{ ...INTENT, ...intent }} onPaid={onPaid} onClosed={onClosed} />,
    },
  ]);
  return { server, onPaid, onClosed };
}

describe('the Orange Money QR modal', () => {
  it('shows the QR code, the merchant code, both apps and the countdown', async () => {
    setup('PENDING');
    const qr = await screen.findByRole('img', { name: 'Orange Money QR code to scan' });
    expect(qr.getAttribute('src')).toBe('data:image/png;base64,iVBORw0KGgo=');
    expect(screen.getByText('123456')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Open Orange Money' }).getAttribute('href')).toBe('https://om.example/pay');
    expect(screen.getByRole('link', { name: 'Open Max it' }).getAttribute('href')).toBe('https://maxit.example/pay');
    expect(screen.getByText('This code expires in 5:00')).toBeTruthy();
  });

  it('asks the status every 2 s and closes with the failure when it failed', async () => {
    const { server, onPaid, onClosed } = setup('FAILED');
    await waitFor(() => expect(onClosed).toHaveBeenCalledWith('failed'), { timeout: 4000 });
    const asked = server.calls.filter((call) => call.path === '/api/payments/status');
    expect(asked).toHaveLength(1);
    expect(asked[0]!.body).toEqual({ paymentIntentId: 'pay-om-1' });
    expect(onPaid).not.toHaveBeenCalled();
  });

  it('closes as cancelled (not expired, not failed) when the payment was cancelled at Orange Money', async () => {
    const { onPaid, onClosed } = setup('CANCELLED');
    await waitFor(() => expect(onClosed).toHaveBeenCalled(), { timeout: 4000 });
    expect(onClosed.mock.calls).toEqual([['cancelled']]);
    expect(onPaid).not.toHaveBeenCalled();
  });

  it('closes when the countdown reaches 0, and a close by hand says so (the checkout cancels)', async () => {
    const expiring = setup('PENDING', { validity: 1 });
    await waitFor(() => expect(expiring.onClosed).toHaveBeenCalledWith('expired'), { timeout: 3000 });
    expect(expiring.onPaid).not.toHaveBeenCalled();
    document.body.innerHTML = '';
    const closing = setup('PENDING');
    await userEvent.click(await screen.findByRole('button', { name: 'Cancel payment' }));
    expect(closing.onClosed).toHaveBeenCalledWith('user');
    expect(closing.onPaid).not.toHaveBeenCalled();
  });

  it('says paid as soon as it sees it, shows the success 5 s, then closes as paid', async () => {
    const { onPaid, onClosed } = setup('COMPLETED');
    await screen.findByText('Payment received. Thank you!', undefined, { timeout: 4000 });
    // The cooldown starts from here (the checkout's orangePaid), not 5 s later when the modal closes.
    expect(onPaid).toHaveBeenCalledTimes(1);
    expect(onClosed).not.toHaveBeenCalled();
    await waitFor(() => expect(onClosed).toHaveBeenCalledWith('paid'), { timeout: 7000 });
    expect(onPaid).toHaveBeenCalledTimes(1);
  }, 15_000);
});
