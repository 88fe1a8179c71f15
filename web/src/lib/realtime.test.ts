import { describe, expect, it, jest } from '@jest/globals';
import type { Socket } from 'socket.io-client';
import { RealtimeClient } from './realtime';

/** A socket.io client socket as far as `RealtimeClient` uses it: listeners kept, `emit` from the server's side. */
function fakeSocket() {
  const listeners = new Map<string, Array<(...args: unknown[]) => void>>();
  const socket = {
    active: true,
    on(event: string, listener: (...args: unknown[]) => void) {
      listeners.set(event, [...(listeners.get(event) ?? []), listener]);
      return socket;
    },
    onAny: jest.fn(),
    removeAllListeners: jest.fn(() => listeners.clear()),
    connect: jest.fn(),
    disconnect: jest.fn(),
    /** What the server sends. */
    receive(event: string, ...args: unknown[]) {
      for (const listener of listeners.get(event) ?? []) listener(...args);
    },
  };
  return socket;
}

describe('the real-time connection', () => {
  it('hands a session the server ended to the page and does not come back with a renewed token', async () => {
    jest.useFakeTimers();
    const socket = fakeSocket();
    const onSessionEnded = jest.fn();
    const getToken = jest.fn(async () => 'token');
    const client = new RealtimeClient({
      getToken,
      connect: async () => socket as unknown as Socket,
      onStatus: jest.fn(),
      onSessionEnded,
    });
    await client.start();
    socket.receive('connect');
    socket.receive('session.ended', {});
    socket.receive('disconnect', 'io server disconnect');
    await jest.advanceTimersByTimeAsync(60_000);
    expect(onSessionEnded).toHaveBeenCalledTimes(1);
    expect(socket.connect).toHaveBeenCalledTimes(1); // the first connection only
    expect(getToken).not.toHaveBeenCalled();
    jest.useRealTimers();
  });

  it('comes back with a fresh token when the server closes the socket for an expired one', async () => {
    jest.useFakeTimers();
    const socket = fakeSocket();
    const client = new RealtimeClient({
      getToken: async () => 'token',
      connect: async () => socket as unknown as Socket,
      onStatus: jest.fn(),
      onSessionEnded: jest.fn(),
    });
    await client.start();
    socket.receive('connect');
    socket.receive('disconnect', 'io server disconnect');
    await jest.advanceTimersByTimeAsync(1_000);
    expect(socket.connect).toHaveBeenCalledTimes(2);
    client.stop();
    jest.useRealTimers();
  });
});
