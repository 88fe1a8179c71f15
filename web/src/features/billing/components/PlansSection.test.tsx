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

function setup() {
  let cancelled = false;
  const server = fakeServer({
    'GET /api/plans': () => ({ status: 200, body: { plans: [STARTER] } }),
    'GET /api/subscriptions/current': () => ({
      status: 200,
      body: { success: true, subscription: { activePacks: [{ ...PACK, renewalCancelled: cancelled }] } },
    }),
    'POST /api/subscriptions/cancel': () => {
      cancelled = true;
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

  it('cancels the renewal only after the confirmation', async () => {
    const { server } = setup();
    await userEvent.click(await screen.findByRole('button', { name: 'Cancel renewal' }));
    const dialog = await screen.findByRole('dialog', { name: 'Cancel your subscription?' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Keep my subscription' }));
    expect(server.calls.some((call) => call.path === '/api/subscriptions/cancel')).toBe(false);
    await userEvent.click(screen.getByRole('button', { name: 'Cancel renewal' }));
    await userEvent.click(
      within(await screen.findByRole('dialog', { name: 'Cancel your subscription?' })).getByRole('button', {
        name: 'Yes, cancel',
      }),
    );
    await screen.findByText('Not renewed');
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Cancel renewal' })).toBeNull());
    expect(server.calls.filter((call) => call.path === '/api/subscriptions/cancel')).toHaveLength(1);
  });
});
