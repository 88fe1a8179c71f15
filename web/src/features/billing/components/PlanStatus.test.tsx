import { act, screen } from '@testing-library/react';
import { describe, expect, it } from '@jest/globals';
import { fakeServer, renderRoutes } from '../../../test/fakes';
import { PlanStatus } from './PlanStatus';

describe('the header’s plan badge and credits', () => {
  it('follow the credits.changed socket message without waiting for the next poll', async () => {
    let used = 0;
    fakeServer({
      'GET /api/subscriptions/current': () => ({
        status: 200,
        body: { success: true, subscription: { plan: { name: 'Starter' }, totalCredits: 5, creditsUsed: used } },
      }),
    });
    const { realtime } = renderRoutes([{ path: '/', element: <PlanStatus /> }]);
    await screen.findByText('5 credits');
    expect(screen.getByText('Starter')).toBeTruthy();
    const calls = realtime.on.mock.calls as unknown as Array<[string, (payload: unknown) => void]>;
    const handler = calls.find(([event]) => event === 'credits.changed')?.[1];
    expect(handler).toBeDefined();
    used = 1;
    act(() => handler!({ balance: 4 }));
    await screen.findByText('4 credits');
  });
});
