import { act, screen, within } from '@testing-library/react';
import { describe, expect, it } from '@jest/globals';
import { fakeServer, renderRoutes } from '../../../test/fakes';
import { PlanStatus } from './PlanStatus';

/** The subscription as the server sends it: credits by service, and the totals over every pack. */
function subscription(remaining: Record<string, number>, unlimitedPreview = false) {
  const total = Object.values(remaining).reduce((sum, count) => sum + count, 0);
  return {
    status: 200,
    body: {
      success: true,
      subscription: {
        plan: { name: 'Starter', unlimitedPreview },
        totalCredits: total,
        creditsUsed: 0,
        remainingCredits: total,
        remaining: { AI_MIXING: 0, ...remaining },
      },
    },
  };
}

describe('the header’s plan badge and credits', () => {
  const credits = () => within(screen.getByRole('list', { name: 'Credits left by service' }));

  it('shows the credits service by service, never their sum across services', async () => {
    fakeServer({
      'GET /api/subscriptions/current': () =>
        subscription({ AI_MASTERING: 4, STEM_SEPARATION: 6, AUDIO_ENHANCEMENT: 0 }),
    });
    renderRoutes([{ path: '/', element: <PlanStatus /> }]);
    await screen.findByText('Mastering: 4 credits');
    expect(credits().getByText('Stems: 6 credits')).toBeTruthy();
    expect(credits().getByText('Enhancement: 0 credits')).toBeTruthy();
    expect(credits().getAllByRole('listitem')).toHaveLength(3);
    expect(screen.queryByText('10 credits')).toBeNull();
    expect(screen.getByText('Starter')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'View packs' })).toBeTruthy();
    expect(screen.queryByText('Unlimited previews')).toBeNull();
  });

  it('marks unlimited previews when a pack of the plan promises them (a mastering pack)', async () => {
    fakeServer({
      'GET /api/subscriptions/current': () =>
        subscription({ AI_MASTERING: 5, STEM_SEPARATION: 0, AUDIO_ENHANCEMENT: 0 }, true),
    });
    renderRoutes([{ path: '/', element: <PlanStatus /> }]);
    expect(await screen.findByText('Unlimited previews')).toBeTruthy();
  });

  it('shows until when the credits of a pack bought once last, as the spec’s header shows a plan’s expiry', async () => {
    const answer = subscription({ AI_MASTERING: 5, STEM_SEPARATION: 0, AUDIO_ENHANCEMENT: 0 });
    const { subscription: current } = answer.body as { subscription: Record<string, unknown> };
    // As the server sends it for one pack paid once (PayPal or Orange Money): it does not renew.
    Object.assign(current, {
      plan: { id: 'mastering-starter', name: 'Starter', serviceType: 'AI_MASTERING', billingCycle: 'MONTHLY' },
      status: 'active',
      startDate: '2026-11-26T10:00:00.000Z',
      endDate: '2026-12-26T10:00:00.000Z',
      activePacks: [
        {
          id: 'p1',
          planId: 'mastering-starter',
          planName: 'Starter',
          serviceType: 'AI_MASTERING',
          billingCycle: 'MONTHLY',
          limit: 5,
          used: 0,
          remaining: 5,
          startDate: '2026-11-26T10:00:00.000Z',
          endDate: '2026-12-26T10:00:00.000Z',
          renews: false,
          renewalCancelled: false,
        },
      ],
    });
    fakeServer({ 'GET /api/subscriptions/current': () => answer });
    renderRoutes([{ path: '/', element: <PlanStatus /> }]);
    await screen.findByText('Mastering: 5 credits');
    expect(document.querySelector('.plan-status__expiry')?.textContent).toBe('Credits valid until Dec 26, 2026');
  });

  it('follow the credits.changed socket message without waiting for the next poll', async () => {
    let mastering = 5;
    fakeServer({
      'GET /api/subscriptions/current': () =>
        subscription({ AI_MASTERING: mastering, STEM_SEPARATION: 0, AUDIO_ENHANCEMENT: 0 }),
    });
    const { realtime } = renderRoutes([{ path: '/', element: <PlanStatus /> }]);
    await screen.findByText('Mastering: 5 credits');
    const calls = realtime.on.mock.calls as unknown as Array<[string, (payload: unknown) => void]>;
    const handler = calls.find(([event]) => event === 'credits.changed')?.[1];
    expect(handler).toBeDefined();
    mastering = 4;
    act(() => handler!({ service: 'AI_MASTERING', remaining: 4 }));
    await screen.findByText('Mastering: 4 credits');
  });
});
