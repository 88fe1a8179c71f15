import { decodeAudio, type Pcm, synthesizeDemoSong, writeWav } from '@kora/audio-engine';
import { UnlockTrack } from '@kora/audio';
import { CommandBus } from '@nestjs/cqrs';
import { readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { io, type Socket } from 'socket.io-client';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { waitUntil } from '../contracts/event-store.contract';
import { registeredUser, type TestUser } from '../support/accounts';
import { startTestApp, type TestApp } from '../support/test-app';
import { tempDir } from '../support/temp';

interface StatusMessage {
  trackId: string;
  status: string;
  progress: number | null;
}

/** The stems each mode gives with the classical separator, in the spec's stem order, then the original. */
const EXPECTED: Record<string, string[]> = {
  vocals: ['vocals', 'other', 'original'],
  drums: ['drums', 'other', 'original'],
  guitars: ['guitars', 'other', 'original'],
  full: ['vocals', 'drums', 'bass', 'other', 'original'],
};

/** Signal-to-distortion ratio of `estimate` against `reference`, in dB, over both channels. */
function sdr(reference: Pcm, estimate: Pcm): number {
  let signal = 0;
  let error = 0;
  reference.channels.forEach((channel, c) => {
    const other = estimate.channels[c]!;
    for (let i = 0; i < Math.min(channel.length, other.length); i++) {
      signal += channel[i]! ** 2;
      error += (channel[i]! - other[i]!) ** 2;
    }
  });
  return 10 * Math.log10(signal / error);
}

describe('stems: separation through the product, every mode', () => {
  let test: TestApp;
  let awa: TestUser;
  let kofi: TestUser;
  let socket: Socket;
  const statuses: StatusMessage[] = [];
  const media = tempDir('kora-stems-');
  let songPath: string;
  let trueVocals: Pcm;
  let mixture: Pcm;

  beforeAll(async () => {
    // A song with a sung line, drums, bass and keys, whose true parts we know.
    const song = synthesizeDemoSong({ seconds: 12, sampleRate: 44_100, seed: 5 });
    songPath = join(media.path, 'Fatou – live take.wav');
    await writeWav(songPath, song.mixture, { encoding: 'pcm16' });
    trueVocals = song.stems.vocals;
    mixture = song.mixture;
    test = await startTestApp({ realAuth: true });
    awa = await registeredUser(test, { email: 'awa.stems@example.sn' });
    kofi = await registeredUser(test, { email: 'kofi.stems@example.tg' });
    socket = io(test.url, { auth: { token: awa.token }, transports: ['websocket'], reconnection: false });
    socket.on('track.status', (message: StatusMessage) => statuses.push(message));
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', resolve);
      socket.once('connect_error', reject);
    });
  }, 60_000);
  afterAll(async () => {
    socket.disconnect();
    await test.close();
    media.cleanup();
  });

  const upload = (user: TestUser, file: string, fields: Record<string, string>) => {
    let call = request(test.url).post('/api/audio/upload').set(user.auth);
    for (const [name, value] of Object.entries(fields)) call = call.field(name, value);
    return call.attach('file', file);
  };

  async function until(trackId: string, done: (status: string) => boolean): Promise<Record<string, unknown>> {
    const deadline = Date.now() + 90_000;
    for (;;) {
      const status = await request(test.url).get(`/api/audio/track/${trackId}/status`).set(awa.auth).expect(200);
      if (done(status.body.status)) return status.body;
      if (Date.now() > deadline) throw new Error(`track ${trackId} stayed ${status.body.status}`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }

  const blobFiles = (trackId: string): string[] => {
    const dir = join(test.dataDir, 'blobs', 'tracks', trackId);
    try {
      return readdirSync(dir).filter((name) => !name.endsWith('.type'));
    } catch (error) {
      // Gone, or removed between two looks while a deletion runs: no files either way.
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw error;
    }
  };

  /** Fetches a stream into a file and decodes it. */
  async function fetchAudio(url: string, name: string): Promise<Pcm> {
    const response = await request(test.url)
      .get(url)
      .set(awa.auth)
      .buffer(true)
      .parse((res, callback) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => callback(null, Buffer.concat(chunks)));
      })
      .expect(200);
    const path = join(media.path, name);
    writeFileSync(path, response.body as Buffer);
    return (await decodeAudio(path)).pcm;
  }

  for (const mode of Object.keys(EXPECTED)) {
    it(`separates in ${mode} mode: live status, stems in the spec's order, previews free and full stems locked`, async () => {
      const uploaded = await upload(awa, songPath, { service: 'STEM_SEPARATION', mode }).expect(201);
      const id = uploaded.body.id as string;
      expect(uploaded.body).toMatchObject({ service: 'STEM_SEPARATION', mode, status: 'STEMS_PROCESSING' });

      const final = await until(id, (status) => status === 'STEMS_READY' || status === 'FAILED');
      expect(final).toMatchObject({ status: 'STEMS_READY', error: null, errorCode: null });
      await waitUntil(() => statuses.some((s) => s.trackId === id && s.status === 'STEMS_READY'));
      const live = statuses.filter((s) => s.trackId === id);
      const working = live.filter((s) => s.status === 'STEMS_PROCESSING');
      expect(working.length).toBeGreaterThanOrEqual(1);
      expect(live.findIndex((s) => s.status === 'STEMS_PROCESSING')).toBeLessThan(
        live.findIndex((s) => s.status === 'STEMS_READY'),
      );
      const fractions = working.map((s) => s.progress!).filter((p) => p !== null);
      expect(fractions).toEqual([...fractions].sort((a, b) => a - b));

      const track = (await request(test.url).get(`/api/audio/track/${id}`).set(awa.auth).expect(200)).body;
      expect(Object.keys(track.stems)).toEqual(EXPECTED[mode]);
      expect(track.streamUrls.stems).toEqual(track.stems);
      for (const stem of EXPECTED[mode]!.filter((name) => name !== 'original')) {
        expect(track.stems[stem]).toBe(`/api/audio/track/${id}/stream/${stem}-preview`);
      }
      expect(track.stems.original).toBe(`/api/audio/track/${id}/stream/preview`);
      expect(track).toMatchObject({
        unlocked: false,
        masterUrl: null,
        previewUrl: `/api/audio/track/${id}/stream/preview`,
      });

      // A stem's preview plays for free, by range; the full stem is locked.
      const first = EXPECTED[mode]![0]!;
      const ranged = await request(test.url)
        .get(track.stems[first])
        .set(awa.auth)
        .set('Range', 'bytes=0-1023')
        .expect(206);
      expect(ranged.headers['content-type']).toBe('audio/mpeg');
      expect(ranged.headers['content-range']).toMatch(/^bytes 0-1023\/\d+$/);
      const preview = await fetchAudio(track.stems[first], `${mode}-${first}-preview.mp3`);
      const previewSeconds = preview.channels[0]!.length / preview.sampleRate;
      expect(previewSeconds).toBeGreaterThan(11.5); // the song is shorter than 30 s: the whole of it
      expect(previewSeconds).toBeLessThan(12.2);
      const locked = await request(test.url).get(`/api/audio/track/${id}/stream/${first}`).set(awa.auth).expect(403);
      expect(locked.body.code).toBe('TRACKS.LOCKED');

      // Another user sees none of it.
      for (const path of [`/api/audio/track/${id}`, track.stems[first], `/api/audio/track/${id}/stream/${first}`]) {
        const response = await request(test.url).get(path).set(kofi.auth);
        expect({ path, status: response.status }).toEqual({ path, status: 404 });
      }

      const stored = blobFiles(id).sort();
      for (const stem of EXPECTED[mode]!.filter((name) => name !== 'original')) {
        expect(stored).toContain(`stem-${stem}`);
        expect(stored).toContain(`preview-${stem}`);
      }
      expect(stored).toEqual(expect.arrayContaining(['original', 'original-wav', 'preview', 'report']));
    });
  }

  it('streams the full stems once unlocked: WAVs by range that add up to the original, vocals closer to the sung line', async () => {
    const uploaded = await upload(awa, songPath, { service: 'STEM_SEPARATION', mode: 'full' }).expect(201);
    const id = uploaded.body.id as string;
    await until(id, (status) => status === 'STEMS_READY' || status === 'FAILED');
    // The seam billing unlocks through after a capture (its HTTP route is tested in backend/test/billing).
    const unlock = new UnlockTrack(awa.userId, id, 'payment', `payment-${id}`);
    await expect(test.app.get(CommandBus).execute(new UnlockTrack(kofi.userId, id, 'payment', 'x'))).rejects.toThrow();
    expect(await test.app.get(CommandBus).execute(unlock)).toBe(true);
    expect(await test.app.get(CommandBus).execute(unlock)).toBe(false);
    await until(id, (status) => status === 'MASTER_READY');
    const track = (await request(test.url).get(`/api/audio/track/${id}`).set(awa.auth).expect(200)).body;
    expect(track.unlocked).toBe(true);
    expect(track.stems).toEqual({
      vocals: `/api/audio/track/${id}/stream/vocals`,
      drums: `/api/audio/track/${id}/stream/drums`,
      bass: `/api/audio/track/${id}/stream/bass`,
      other: `/api/audio/track/${id}/stream/other`,
      original: `/api/audio/track/${id}/stream/original-wav`,
    });
    const ranged = await request(test.url).get(track.stems.vocals).set(awa.auth).set('Range', 'bytes=0-43').expect(206);
    expect(ranged.headers['content-type']).toBe('audio/wav');
    expect(ranged.body.subarray(0, 4).toString('latin1')).toBe('RIFF');
    expect(ranged.headers['content-disposition']).toContain('live take_vocals');

    const stems = await Promise.all(
      ['vocals', 'drums', 'bass', 'other'].map((stem) => fetchAudio(track.stems[stem], `full-${stem}.wav`)),
    );
    const original = await fetchAudio(track.stems.original, 'full-original.wav');
    expect(original.sampleRate).toBe(44_100);
    expect(original.channels[0]!.length).toBe(mixture.channels[0]!.length);
    for (const stem of stems) expect(stem.channels[0]!.length).toBe(original.channels[0]!.length);
    // Mixture consistency: the stems sum back to the original; 24-bit quantisation is the only error (120 dB here).
    const sum: Pcm = {
      sampleRate: original.sampleRate,
      channels: original.channels.map((_, c) => {
        const out = new Float32Array(original.channels[c]!.length);
        for (const stem of stems) stem.channels[c]!.forEach((v, i) => (out[i]! += v));
        return out;
      }),
    };
    expect(sdr(original, sum)).toBeGreaterThan(100);
    // The vocals stem is a better estimate of the sung line than the mixture itself (6.05 dB better here).
    const gain = sdr(trueVocals, stems[0]!) - sdr(trueVocals, mixture);
    expect(gain).toBeGreaterThan(5);

    await request(test.url).delete(`/api/audio/${id}`).set(awa.auth).expect(200);
    await request(test.url).get(track.stems.vocals).set(awa.auth).expect(404);
    await waitUntil(() => blobFiles(id).length === 0, 10_000);
  });

  it('says why a separation failed: a recording shorter than a second', async () => {
    // 0.9 s of 32-bit float at 192 kHz passes the 1 MB minimum but is too short to separate.
    const short = synthesizeDemoSong({ seconds: 4, sampleRate: 192_000, seed: 2 }).mixture;
    const cut: Pcm = { sampleRate: 192_000, channels: short.channels.map((ch) => ch.slice(0, 172_800)) };
    const path = join(media.path, 'short.wav');
    await writeWav(path, cut, { encoding: 'float32' });
    const uploaded = await upload(awa, path, { service: 'STEM_SEPARATION', mode: 'vocals' }).expect(201);
    const final = await until(uploaded.body.id, (status) => status === 'STEMS_READY' || status === 'FAILED');
    expect(final).toMatchObject({
      status: 'FAILED',
      errorCode: 'ENGINE.TOO_SHORT',
      error: 'The recording is too short to separate: it needs at least one second of sound.',
    });
  });
});
