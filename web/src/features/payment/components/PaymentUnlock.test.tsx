import { act, cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, jest } from '@jest/globals';
import { fakeServer, renderRoutes } from '../../../test/fakes';
import { paymentApi } from '../api/payment';
import { PaymentUnlock, type PaymentUnlockProps } from './PaymentUnlock';
import { COOLDOWN_KEY } from '../model/rules';

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

type Answer = { status: number; body?: unknown };

interface Options {
  remaining?: number | null;
  track?: Partial<PaymentUnlockProps['track']>;
  /** `GET /api/user/preferences` (none: 404, so the browser's currency stays). */
  preferences?: () => Answer | Promise<Answer>;
}

function setup(options: Options = {}) {
  let unlocked = false;
  const server = fakeServer({
    ...(options.preferences ? { 'GET /api/user/preferences': options.preferences } : {}),
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
    'POST /api/payments/createIntent': () => ({
      status: 200,
      body: { paymentId: 'pay-pp-1', provider: 'PAYPAL', amount: 4.99, currency: 'USD', orderId: 'order-1' },
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
  const { store } = renderRoutes([
    { path: '/', element },
    { path: '/accountSettings', element: <p>plans page</p> },
  ]);
  /** The saved currency as the client holds it (undefined until the preferences are in). */
  const preferred = () => paymentApi.endpoints.getPreferredCurrency.select()(store.getState()).data;
  return { server, onUnlocked, preferred };
}

/** The preferences as the server answers them, with this currency saved. */
const saved = (currency: string): Answer => ({
  status: 200,
  body: {
    success: true,
    preferences: { notificationSettings: { emailNotifications: true }, language: 'en', currency },
  },
});

/** An answer the test gives when it wants (a slow network); `give` lets the client take it in. */
function later() {
  let resolve: (answer: Answer) => void = () => undefined;
  const answer = new Promise<Answer>((done) => {
    resolve = done;
  });
  const give = (given: Answer) =>
    act(async () => {
      resolve(given);
      await new Promise((settled) => setTimeout(settled, 50));
    });
  return { answer: () => answer, give };
}

async function openPanel() {
  await userEvent.click(await screen.findByRole('button', { name: 'Pay for this track' }));
  const panel = await screen.findByRole('dialog', { name: 'Pay for this track' });
  const currency = () => (within(panel).getByLabelText('Currency') as HTMLSelectElement).value;
  return { panel, currency };
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

  it('offers the packs instead of "Use a credit" when no credit is left (or no subscription)', async () => {
    for (const remaining of [0, null]) {
      const { server } = setup({ remaining });
      await screen.findByText('No credit left for this service.');
      expect(screen.queryByRole('button', { name: 'Use a credit' })).toBeNull();
      expect(screen.getByRole('link', { name: 'See the packs' }).getAttribute('href')).toBe(
        '/accountSettings?section=plans&service=AI_MASTERING#plansSection',
      );
      expect(screen.getByRole('button', { name: 'Pay for this track' })).toHaveProperty('disabled', false);
      expect(server.calls.some((call) => call.method === 'POST')).toBe(false);
      cleanup();
    }
  });

  it('never offers a credit or a pack on a mix: AI mixing has no packs, the mix is paid on its own', async () => {
    // Credits of other services do not count for a mix.
    setup({ remaining: 3, track: { id: 'mix-1', service: 'AI_MIXING', filename: 'Sabar' } });
    await screen.findByText('There are no credit packs for AI mixing: each mix is paid on its own.');
    expect(screen.queryByRole('button', { name: 'Use a credit' })).toBeNull();
    expect(screen.queryByRole('link', { name: 'See the packs' })).toBeNull();
    expect(screen.queryByText('No credit left for this service.')).toBeNull();
    expect(screen.getByRole('button', { name: 'Pay for this mix' })).toHaveProperty('disabled', false);
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

  it('opens the pay panel in the currency saved in the preferences, not the browser’s', async () => {
    // The browser says en-US (dollars); the account says CFA francs.
    const { server } = setup({ remaining: 0, preferences: () => saved('XOF') });
    await waitFor(() => expect(server.calls.some((call) => call.path === '/api/user/preferences')).toBe(true));
    const { panel, currency } = await openPanel();
    await within(panel).findByRole('button', { name: /^Pay 3,000\sFCFA with Orange Money$/ });
    expect(currency()).toBe('XOF');
  });

  it('uses the browser’s currency until the preferences load, then switches to the saved one', async () => {
    const slow = later();
    setup({ remaining: 0, preferences: slow.answer });
    const { panel, currency } = await openPanel();
    await within(panel).findByRole('button', { name: 'Pay $4.99 with PayPal or a card' });
    expect(currency()).toBe('USD');
    await slow.give(saved('EUR'));
    await within(panel).findByRole('button', { name: 'Pay €4.49 with PayPal or a card' });
    expect(currency()).toBe('EUR');
  });

  it('keeps a currency picked by hand when the saved one arrives later', async () => {
    const slow = later();
    const { preferred } = setup({ remaining: 0, preferences: slow.answer });
    const { panel, currency } = await openPanel();
    await userEvent.selectOptions(within(panel).getByLabelText('Currency'), 'XOF');
    await slow.give(saved('EUR'));
    await waitFor(() => expect(preferred()).toBe('EUR'));
    expect(currency()).toBe('XOF');
    expect(within(panel).getByRole('button', { name: /^Pay 3,000\sFCFA with Orange Money$/ })).toBeTruthy();
  });

  it('keeps the currency of a payment under way when the saved one arrives meanwhile', async () => {
    const slow = later();
    // The PayPal window stays open: the payment runs in dollars.
    const popup = { closed: false, close: jest.fn(), location: { href: '' } };
    const open = jest.spyOn(window, 'open').mockReturnValue(popup as unknown as Window);
    try {
      const { server, preferred } = setup({ remaining: 0, preferences: slow.answer });
      const { panel, currency } = await openPanel();
      const pay = await within(panel).findByRole('button', { name: 'Pay $4.99 with PayPal or a card' });
      // Enabled once the payment configuration is in.
      await waitFor(() => expect(pay).toHaveProperty('disabled', false));
      await userEvent.click(pay);
      await within(panel).findByText('Finish the payment in the PayPal window...');
      await slow.give(saved('EUR'));
      await waitFor(() => expect(preferred()).toBe('EUR'));
      expect(currency()).toBe('USD');
      const intent = server.calls.find((call) => call.path === '/api/payments/createIntent');
      expect(intent?.body).toMatchObject({ provider: 'PAYPAL', currency: 'USD' });
    } finally {
      open.mockRestore();
    }
  });

  it('keeps the browser’s currency for an unreadable saved one or a failed request', async () => {
    for (const preferences of [() => saved('GBP'), () => ({ status: 500, body: { code: 'INTERNAL' } })]) {
      const { server } = setup({ remaining: 0, preferences });
      await waitFor(() => expect(server.calls.some((call) => call.path === '/api/user/preferences')).toBe(true));
      const { panel, currency } = await openPanel();
      await within(panel).findByRole('button', { name: 'Pay $4.99 with PayPal or a card' });
      expect(currency()).toBe('USD');
      cleanup();
    }
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
    cleanup();
    setup({ remaining: 1, track: { status: 'PROCESSING' } });
    // Its requests still answer (credits, price, preferences): inside act, so their updates are the test's.
    await act(() => new Promise((resolve) => setTimeout(resolve, 50)));
    expect(screen.queryByRole('heading', { name: 'Unlock the full result' })).toBeNull();
  });

  it('shows the thank-you banner once the track is unlocked, and nothing to pay', async () => {
    setup({ track: { unlocked: true, status: 'MASTER_READY' } });
    await screen.findByText('Thank you!');
    expect(screen.queryByRole('button', { name: 'Use a credit' })).toBeNull();
  });
});
