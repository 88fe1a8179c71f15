import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, jest } from '@jest/globals';
import { fakeServer, renderRoutes } from '../../test/fakes';
import { PaymentUnlock, type PaymentUnlockProps } from './PaymentUnlock';
import { COOLDOWN_KEY } from './rules';

const TRACK: PaymentUnlockProps['track'] = {
  id: 'track-1',
  service: 'AI_MASTERING',
  status: 'PREVIEW_READY',
  filename: 'sunu-gaal.wav',
  isDemo: false,
  unlocked: false,
};

const PAYNGO = {
  plans: [{ id: 'payngo-mastering', name: 'Pay Per Track', priceUSD: 4.99, priceEUR: 4.49, priceXOF: 3000 }],
};

function setup(options: { remaining?: number | null; track?: Partial<PaymentUnlockProps['track']> } = {}) {
  let unlocked = false;
  const server = fakeServer({
    'GET /api/subscriptions/current': () =>
      options.remaining === null
        ? { status: 404, body: { statusCode: 404, code: 'BILLING.NO_SUBSCRIPTION', message: 'No subscription' } }
        : {
            status: 200,
            body: { success: true, subscription: { remaining: { AI_MASTERING: options.remaining ?? 0 } } },
          },
    'GET /api/plans/payngo': () => ({ status: 200, body: PAYNGO }),
    'GET /api/payments/config': () => ({
      status: 200,
      body: { paypal: { mode: 'sandbox' }, orangeMoney: { mode: 'sandbox' } },
    }),
    'POST /api/audio/track/track-1/master': () => {
      unlocked = true;
      return { status: 200, body: { success: true, unlocked: true, creditsRemaining: 1 } };
    },
    'GET /api/audio/track/track-1/status': () => ({
      status: 200,
      body: { status: unlocked ? 'MASTER_READY' : 'PREVIEW_READY' },
    }),
    'GET /api/audio/track/track-1': () => ({
      status: 200,
      body: { id: 'track-1', unlocked, masterUrl: unlocked ? '/api/audio/track/track-1/stream/master' : null },
    }),
  });
  const onUnlocked = jest.fn();
  const element = <PaymentUnlock track={{ ...TRACK, ...options.track }} onUnlocked={onUnlocked} />;
  renderRoutes([
    { path: '/', element },
    { path: '/accountSettings', element: <p>plans page</p> },
  ]);
  return { server, onUnlocked };
}

afterEach(() => localStorage.clear());

describe('the payment unlock screen', () => {
  it('uses a credit after the warning list, then polls until the master is ready', async () => {
    const { server, onUnlocked } = setup({ remaining: 2 });
    await screen.findByText('2 credits left for this service.');
    await userEvent.click(screen.getByRole('button', { name: 'Use a credit' }));
    const dialog = await screen.findByRole('dialog', { name: 'Use a credit' });
    expect(within(dialog).getAllByRole('listitem')).toHaveLength(4);
    expect(within(dialog).getByText(/can't be refunded/)).toBeTruthy();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Use a credit' }));
    await waitFor(() => expect(onUnlocked).toHaveBeenCalledTimes(1));
    const unlock = server.calls.find((call) => call.method === 'POST' && call.path.endsWith('/master'));
    expect(unlock?.body).toEqual({ credit: true });
    expect(server.calls.some((call) => call.path === '/api/audio/track/track-1/status')).toBe(true);
  });

  it('offers the pack purchase instead of a credit when none is left (or no subscription)', async () => {
    for (const remaining of [0, null]) {
      const { server } = setup({ remaining });
      await screen.findByText('No credit left for this service.');
      await userEvent.click(screen.getByRole('button', { name: 'Use a credit' }));
      const dialog = await screen.findByRole('dialog', { name: 'Use a credit' });
      expect(within(dialog).queryByRole('list')).toBeNull();
      expect(within(dialog).getByRole('link', { name: 'See the packs' }).getAttribute('href')).toBe(
        '/accountSettings?section=plans&service=AI_MASTERING#plansSection',
      );
      expect(server.calls.some((call) => call.method === 'POST')).toBe(false);
      document.body.innerHTML = '';
    }
  });

  it('disables every payment action on a demo track', async () => {
    setup({ remaining: 3, track: { isDemo: true } });
    await screen.findByText("This is a demo track: payment isn't available for it.");
    expect(screen.getByRole('button', { name: 'Use a credit' })).toHaveProperty('disabled', true);
    expect(screen.getByRole('button', { name: 'Pay for this track' })).toHaveProperty('disabled', true);
  });

  it('offers PayPal outside XOF and Orange Money in XOF, with the pay-per-track price', async () => {
    setup({ remaining: 0 });
    await userEvent.click(await screen.findByRole('button', { name: 'Pay for this track' }));
    const panel = await screen.findByRole('dialog', { name: 'Pay for this track' });
    await userEvent.selectOptions(within(panel).getByLabelText('Currency'), 'USD');
    await within(panel).findByRole('button', { name: 'Pay $4.99 with PayPal or a card' });
    expect(within(panel).queryByRole('button', { name: /Orange Money/ })).toBeNull();
    await userEvent.selectOptions(within(panel).getByLabelText('Currency'), 'XOF');
    await within(panel).findByRole('button', { name: /^Pay 3,000\sFCFA with Orange Money$/ });
    expect(within(panel).queryByRole('button', { name: /PayPal/ })).toBeNull();
  });

  it('keeps Orange Money closed during its cooldown and shows the time left', async () => {
    localStorage.setItem(COOLDOWN_KEY, String(Date.now() + 95_000));
    setup({ remaining: 0 });
    await userEvent.click(await screen.findByRole('button', { name: 'Pay for this track' }));
    const panel = await screen.findByRole('dialog', { name: 'Pay for this track' });
    await userEvent.selectOptions(within(panel).getByLabelText('Currency'), 'XOF');
    await within(panel).findByText(/You can start a new Orange Money payment in 1:3[45]\./);
    expect(within(panel).queryByRole('button', { name: /Orange Money/ })).toBeNull();
  });

  it('offers the same unlock on separated stems, and nothing while a track is still processing', async () => {
    setup({ remaining: 1, track: { service: 'STEM_SEPARATION', status: 'STEMS_READY' } });
    await screen.findByRole('heading', { name: 'Unlock the full result' });
    document.body.innerHTML = '';
    setup({ remaining: 1, track: { status: 'PROCESSING' } });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(screen.queryByRole('heading', { name: 'Unlock the full result' })).toBeNull();
  });

  it('shows the thank-you banner once the track is unlocked, and nothing to pay', async () => {
    setup({ track: { unlocked: true, status: 'MASTER_READY' } });
    await screen.findByText('Thank you!');
    expect(screen.queryByRole('button', { name: 'Use a credit' })).toBeNull();
  });
});
