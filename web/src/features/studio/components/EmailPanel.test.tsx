import { act, fireEvent, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, jest } from '@jest/globals';
import { fakeServer, renderRoutes } from '../../../test/fakes';
import { EmailPanel } from './EmailPanel';

const flush = async () => {
  for (let i = 0; i < 20; i += 1) await act(() => jest.advanceTimersByTimeAsync(1));
};

describe('the e-mail delivery panel', () => {
  beforeEach(() => {
    jest.useFakeTimers({ doNotFake: ['nextTick', 'queueMicrotask'] });
  });
  afterEach(() => {
    jest.useRealTimers();
  });

  it('sends once an address is typed, says Sent, and goes back to Send after 3 s', async () => {
    const server = fakeServer({
      'GET /api/user/profile': () => ({ status: 404, body: {} }),
      'POST /api/audio/send-email': () => ({ status: 200, body: { success: true, expiresAt: '2026-12-02' } }),
    });
    renderRoutes([{ path: '/', element: <EmailPanel trackId="t1" service="AI_MASTERING" unlocked={false} /> }]);
    await flush();
    const send = () => screen.getByRole('button') as HTMLButtonElement;
    expect(send().textContent).toBe('Send');
    expect(send().disabled).toBe(true);
    expect(screen.getByLabelText('E-mail address').getAttribute('type')).toBe('email');
    fireEvent.change(screen.getByLabelText('E-mail address'), { target: { value: 'awa@example.sn' } });
    expect(send().disabled).toBe(false);
    fireEvent.click(send());
    await flush();
    expect(server.calls.find((call) => call.path === '/api/audio/send-email')?.body).toEqual({
      trackId: 't1',
      recipientEmail: 'awa@example.sn',
      service: 'AI_MASTERING',
    });
    expect(send().textContent).toBe('Sent');
    await act(() => jest.advanceTimersByTimeAsync(2900));
    expect(send().textContent).toBe('Sent');
    await act(() => jest.advanceTimersByTimeAsync(200));
    expect(send().textContent).toBe('Send');
  });

  it('says the address is invalid when the server refuses it, and failed otherwise', async () => {
    let answer = {
      status: 400,
      body: {
        statusCode: 400,
        code: 'VALIDATION.FAILED',
        message: 'Invalid',
        fields: { recipientEmail: 'EMAIL.INVALID_ADDRESS' },
      },
    };
    fakeServer({
      'GET /api/user/profile': () => ({ status: 404, body: {} }),
      'POST /api/audio/send-email': () => answer,
    });
    jest.spyOn(console, 'error').mockImplementation(() => undefined);
    renderRoutes([{ path: '/', element: <EmailPanel trackId="t1" service="AI_MASTERING" unlocked /> }]);
    await flush();
    fireEvent.change(screen.getByLabelText('E-mail address'), { target: { value: 'awa@nowhere' } });
    fireEvent.click(screen.getByRole('button'));
    await flush();
    expect(screen.getByRole('alert').textContent).toBe('Enter a valid e-mail address.');
    answer = { status: 500, body: { statusCode: 500, code: 'HTTP.ERROR', message: 'Boom' } } as typeof answer;
    fireEvent.click(screen.getByRole('button'));
    await flush();
    expect(screen.getByRole('alert').textContent).toBe('Failed to send. Please try again.');
  });
});
