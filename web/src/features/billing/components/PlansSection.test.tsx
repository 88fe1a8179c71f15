import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, jest } from '@jest/globals';
import { fakeServer, renderRoutes } from '../../../test/fakes';
import type { Plan } from '../api/billing';
import { type PackPurchaseSlotProps, PlansSection, priceIn } from './PlansSection';

const STARTER: Plan = {
  id: 'mastering-starter',
  name: 'Starter',
  price: 19.99,
  priceUSD: 19.99,
  priceEUR: 18.99,
  priceXOF: 12500,
  serviceType: 'AI_MASTERING',
  features: ['5 masters a month'],
  icon: 'rocket',
  yearly: { priceUSD: 191.9, priceEUR: 182.3, priceXOF: 120000 },
  yearlyDiscountPercent: 20,
};

const PACK = {
  id: 'pay-1',
  planId: 'mastering-starter',
  planName: 'Starter',
  serviceType: 'AI_MASTERING',
  billingCycle: 'MONTHLY',
  limit: 5,
  used: 1,
  remaining: 4,
  startDate: '2026-11-01T00:00:00.000Z',
  endDate: '2026-12-01T00:00:00.000Z',
};

/** A pack paid by one order: it does not renew (every pack the server sells today). */
const ONE_OFF = {
  ...PACK,
  id: 'pay-2',
  planId: 'stems-pro',
  planName: 'Pro',
  serviceType: 'STEM_SEPARATION',
  renews: false,
  renewalCancelled: false,
};

function setup(packs: Array<Record<string, unknown>> = [{ ...PACK, renews: true }]) {
  const cancelled = new Set<string>();
  const server = fakeServer({
    'GET /api/plans': () => ({ status: 200, body: { plans: [STARTER] } }),
    'GET /api/subscriptions/current': () => ({
      status: 200,
      body: {
        success: true,
        subscription: {
          activePacks: packs.map((pack) => ({ ...pack, renewalCancelled: cancelled.has(pack.id as string) })),
        },
      },
    }),
    'POST /api/subscriptions/cancel': (call) => {
      cancelled.add((call.body as { packId: string }).packId);
      return { status: 200, body: { success: true } };
    },
  });
  const bought: PackPurchaseSlotProps[] = [];
  const Purchase = (props: PackPurchaseSlotProps) => {
    bought.push(props);
    return <p>purchase panel</p>;
  };
  const markStale = jest.fn();
  renderRoutes(
    [
      {
        path: '/accountSettings',
        element: <PlansSection active reloadToken={0} markStale={markStale} Purchase={Purchase} />,
      },
    ],
    { path: '/accountSettings?section=plans&service=AI_MASTERING' },
  );
  return { server, bought };
}

describe('the plans section', () => {
  it('prices a year from the server, else as 12 months less 20 %', () => {
    expect(priceIn(STARTER, 'USD', 'YEARLY')).toBe(191.9);
    expect(priceIn({ ...STARTER, yearly: undefined }, 'XOF', 'YEARLY')).toBe(120000);
    expect(priceIn({ ...STARTER, yearly: undefined }, 'EUR', 'YEARLY')).toBe(182.3);
    expect(priceIn(STARTER, 'EUR')).toBe(18.99);
  });

  it('shows active packs with usage and dates, and buys in the chosen currency and cycle', async () => {
    const { bought } = setup();
    await screen.findByText(/4 left, 1 used of 5/);
    await userEvent.selectOptions(screen.getByLabelText('Currency'), 'USD');
    await userEvent.click(screen.getByRole('button', { name: 'Yearly (−20%)' }));
    await screen.findByText('$191.90');
    expect(screen.getByText(/Instead of \$239\.88: 20% off/)).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Buy Starter' }));
    await screen.findByText('purchase panel');
    expect(bought.at(-1)).toMatchObject({ billingCycle: 'YEARLY', currency: 'USD', amount: 191.9 });
    expect(bought.at(-1)?.plan.id).toBe('mastering-starter');
  });

  it('cancels the renewal of one pack, the one that renews, only after the confirmation', async () => {
    const { server } = setup([{ ...PACK, renews: true }, ONE_OFF]);
    const cancel = await screen.findByRole('button', { name: 'Cancel the renewal of the Starter pack' });
    // One button per pack that renews: none for the pack paid once.
    expect(screen.getAllByRole('button', { name: /Cancel the renewal/ })).toHaveLength(1);
    await userEvent.click(cancel);
    const dialog = await screen.findByRole('dialog', { name: 'Cancel the renewal of the Starter pack?' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Keep my subscription' }));
    expect(server.calls.some((call) => call.path === '/api/subscriptions/cancel')).toBe(false);
    await userEvent.click(screen.getByRole('button', { name: 'Cancel the renewal of the Starter pack' }));
    await userEvent.click(
      within(await screen.findByRole('dialog', { name: 'Cancel the renewal of the Starter pack?' })).getByRole(
        'button',
        { name: 'Yes, cancel' },
      ),
    );
    await screen.findByText('Not renewed');
    await waitFor(() => expect(screen.queryByRole('button', { name: /Cancel the renewal/ })).toBeNull());
    const calls = server.calls.filter((call) => call.path === '/api/subscriptions/cancel');
    expect(calls.map((call) => call.body)).toEqual([{ packId: 'pay-1' }]);
  });

  it('never speaks of renewal for packs paid once', async () => {
    setup([ONE_OFF, { ...ONE_OFF, id: 'pay-3', planName: 'Starter', serviceType: 'AI_MASTERING' }]);
    const notes = await screen.findAllByText(/^Paid once: this pack does not renew\. Its credits stay usable until/);
    expect(notes).toHaveLength(2);
    expect(screen.queryByRole('button', { name: /renewal/i })).toBeNull();
    expect(screen.queryByText('Not renewed')).toBeNull();
  });
});
