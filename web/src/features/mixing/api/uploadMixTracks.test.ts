import { describe, expect, it, jest } from '@jest/globals';
import type { SendOptions, SendProgress } from '../../../lib/resumable-upload';

// The transfer itself (tus) has its own tests (`resumable-upload.test.ts`); here, what the mix's upload makes of it.
const mockSent: Array<(options: SendOptions) => Promise<string>> = [];
jest.mock('../../../lib/resumable-upload', () => ({
  sendResumable: (_session: unknown, _file: File, options: SendOptions) => mockSent.shift()!(options),
  postNamingUploads: async () => ({ status: 201, body: {} }),
  SendRefusedError: class extends Error {},
}));

const file = (name: string, size: number) => new File([new Uint8Array(size)], name, { type: 'audio/wav' });
const sending = (done: number, total: number, bytesPerSecond: number | null): SendProgress => ({
  phase: 'sending',
  done,
  total,
  bytesPerSecond,
  remainingMs: null,
});

describe('the mix upload progress', () => {
  it('counts the bytes of all the files, the time left of all at the current speed, and holds them while paused', async () => {
    mockSent.push(
      async ({ onProgress }) => {
        onProgress(sending(1000, 2000, 500));
        onProgress({ phase: 'paused', done: 0, total: 2000, bytesPerSecond: null, remainingMs: null });
        onProgress(sending(2000, 2000, 500));
        return 'u1';
      },
      async ({ onProgress }) => {
        onProgress(sending(1500, 3000, 1000));
        return 'u2';
      },
    );
    // Imported once the mock is in place (jest.mock is not hoisted above imports here).
    const { uploadMixTracks } = await import('./mixing');
    const seen: SendProgress[] = [];
    const session = { getAccessToken: async () => 'token' };
    await uploadMixTracks(session as never, 's1', [file('kick.wav', 2000), file('bass.wav', 3000)], [], (progress) =>
      seen.push(progress),
    );
    expect(seen).toEqual([
      { phase: 'sending', done: 1000, total: 5000, bytesPerSecond: 500, remainingMs: 8000 },
      { phase: 'paused', done: 1000, total: 5000, bytesPerSecond: null, remainingMs: null },
      { phase: 'sending', done: 2000, total: 5000, bytesPerSecond: 500, remainingMs: 6000 },
      { phase: 'sending', done: 3500, total: 5000, bytesPerSecond: 1000, remainingMs: 1500 },
    ]);
  });
});
