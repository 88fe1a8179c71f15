import { act, screen } from '@testing-library/react';
import { describe, expect, it } from '@jest/globals';
import { fakeServer, renderRoutes } from '../../test/fakes';
import { DashboardRoute } from './DashboardRoute';

const flush = () => act(() => new Promise((resolve) => setTimeout(resolve, 30)));

/** The dashboard on a service, with `/api/subscriptions/current` answering `subscription` (null: 404, no plan). */
async function open(service: string, subscription: { remaining: Record<string, number> } | null) {
  fakeServer({
    'GET /api/user/profile': () => ({ status: 404, body: {} }),
    'GET /api/subscriptions/current': () =>
      subscription
        ? { status: 200, body: { success: true, subscription } }
        : { status: 404, body: { code: 'BILLING.NO_SUBSCRIPTION', message: 'No subscription' } },
    'GET /api/audio/tracks': () => ({ status: 200, body: { tracks: [], totalCount: 0, page: 1, limit: 4 } }),
  });
  renderRoutes([{ path: '/dashboard', element: <DashboardRoute /> }], { path: `/dashboard?service=${service}` });
  for (let i = 0; i < 5; i += 1) await flush();
}

const filePicker = () => document.querySelector('.dropzone input[type=file]');
const subscribeLink = () => screen.queryByRole('link', { name: 'Subscribe to a pack' });
const credits = (service: string, remaining: number) => ({
  remaining: { AI_MASTERING: 3, STEM_SEPARATION: 3, AUDIO_ENHANCEMENT: 3, AI_MIXING: 0, [service]: remaining },
});

describe('the upload card and the credits (spec §2)', () => {
  it.each(['STEM_SEPARATION', 'AUDIO_ENHANCEMENT'])('%s: credits left keep the file picker', async (service) => {
    await open(service, credits(service, 2));
    expect(filePicker()).not.toBeNull();
    expect(subscribeLink()).toBeNull();
    expect(screen.getByRole('button', { name: 'Media library' })).toBeTruthy();
  });

  it.each(['STEM_SEPARATION', 'AUDIO_ENHANCEMENT'])(
    '%s: no credit left replaces the file picker by the plans link; the demo stays',
    async (service) => {
      await open(service, credits(service, 0));
      expect(filePicker()).toBeNull();
      expect(subscribeLink()?.getAttribute('href')).toBe(
        `/accountSettings?section=plans&service=${service}#plansSection`,
      );
      expect(screen.getByText(/You have no credits left for this service/)).toBeTruthy();
      expect(screen.queryByRole('button', { name: 'Media library' })).toBeNull();
      expect(screen.getByRole('button', { name: /demo/ })).toBeTruthy();
      expect((screen.getByRole('button', { name: 'Start' }) as HTMLButtonElement).disabled).toBe(true);
    },
  );

  it.each(['STEM_SEPARATION', 'AUDIO_ENHANCEMENT'])(
    '%s: no subscription (404) replaces the file picker by the plans link',
    async (service) => {
      await open(service, null);
      expect(filePicker()).toBeNull();
      expect(subscribeLink()?.getAttribute('href')).toBe(
        `/accountSettings?section=plans&service=${service}#plansSection`,
      );
    },
  );

  it.each([
    ['no subscription', null],
    ['no mastering credit', credits('AI_MASTERING', 0)],
  ])('leaves AI mastering alone (%s)', async (_case, subscription) => {
    await open('AI_MASTERING', subscription);
    expect(filePicker()).not.toBeNull();
    expect(subscribeLink()).toBeNull();
  });
});
