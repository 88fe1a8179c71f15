import { EventStore, ProjectionRunner } from '@kora/kernel';
import { trackStream } from '@kora/audio/contracts';
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import request from 'supertest';
import { ConfigError, loadConfig } from '../../src/config/config';
import type { TestApp } from '../support/test-app';

/** A user of the test app and the bearer header its API calls carry. */
export async function signedIn(test: TestApp, userId: string) {
  return { userId, auth: { Authorization: `Bearer ${await test.token(userId)}` } };
}

export type SignedIn = Awaited<ReturnType<typeof signedIn>>;

/** Every event of these types in the log (the audit's view, never the read models). */
export async function eventsOf(test: TestApp, types: string[]) {
  const store = test.app.get(EventStore);
  const { events } = await store.readAll({ after: 0, maxCount: 100_000, types });
  return events;
}

/**
 * A processed track in PREVIEW_READY (or STEMS_READY), written to the log as the worker would: billing's tests need
 * results to unlock, not the engine's minutes.
 */
export async function seedTrack(
  test: TestApp,
  userId: string,
  service: 'AI_MASTERING' | 'STEM_SEPARATION' | 'AUDIO_ENHANCEMENT' = 'AI_MASTERING',
  filename = 'song.wav',
): Promise<string> {
  const store = test.app.get(EventStore);
  const trackId = randomUUID();
  const jobId = randomUUID();
  const metadata = {
    correlationId: trackId,
    causationId: trackId,
    userId,
    occurredAt: new Date().toISOString(),
    schemaVersion: 1,
  };
  const event = (type: string, data: unknown) => ({ id: randomUUID(), type, data, metadata });
  const files = { original: `tracks/${trackId}/original`, preview: `tracks/${trackId}/preview` };
  const result = await store.append(
    trackStream(trackId),
    [
      event('TrackUploaded', {
        trackId,
        ownerId: userId,
        service,
        filename,
        format: 'wav',
        contentType: 'audio/wav',
        fileSize: 2_000_000,
        durationSec: 187,
        sampleRate: 44100,
        channels: 2,
        isVideo: false,
        isDemo: false,
        originalKey: files.original,
      }),
      event('ProcessingRequested', { jobId, service, options: { preset: null, mode: null } }),
      service === 'STEM_SEPARATION'
        ? event('StemsReady', {
            jobId,
            service,
            files,
            stems: ['vocals', 'other'],
            processingSeconds: 1,
            durationSec: 187,
          })
        : event('PreviewReady', {
            jobId,
            service,
            files,
            processingSeconds: 1,
            durationSec: 187,
            before: null,
            after: null,
          }),
    ] as never,
    'no_stream',
  );
  await waitForProjections(test, result.position);
  return trackId;
}

export async function waitForProjections(test: TestApp, position: number): Promise<void> {
  await test.app.get(ProjectionRunner).waitFor(position, 5_000);
}

/** The built command lines (the global setup builds them). */
export const AUDIT_CLI = join(__dirname, '..', '..', 'dist', 'cli', 'audit.js');
export const BILLING_CLI = join(__dirname, '..', '..', 'dist', 'cli', 'billing.js');

/** Runs a built command line on a data directory: its exit code and what it printed. */
export function runCli(
  file: string,
  dataDir: string,
  args: string[] = [],
  env: Record<string, string> = {},
): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      [file, ...args],
      { env: { PATH: process.env.PATH ?? '', DATA_DIR: dataDir, LOG_LEVEL: 'warn', ...env }, maxBuffer: 64 << 20 },
      (error, stdout, stderr) => {
        if (error && typeof error.code !== 'number') reject(error);
        else resolve({ code: error ? (error.code as number) : 0, stdout, stderr });
      },
    );
  });
}

/** A PayPal pack bought through the sandbox over HTTP: intent, approval, capture. */
export async function buyPackOverHttp(
  url: string,
  auth: { Authorization: string },
  planId = 'mastering-starter',
): Promise<{ paymentId: string; orderId: string }> {
  const intent = await request(url)
    .post('/api/payments/createIntent')
    .set(auth)
    .send({ provider: 'PAYPAL', currency: 'USD', planId, billingCycle: 'MONTHLY', paymentType: 'PACK' })
    .expect(201);
  await request(url).post(`/sandbox/paypal/orders/${intent.body.orderId}/approve`).send({}).expect(200);
  await request(url).post(`/api/payments/paypal/capture/${intent.body.orderId}`).set(auth).expect(200);
  return intent.body as { paymentId: string; orderId: string };
}

/** The problems a configuration is refused for (none: it loads). */
export function configProblems(env: Record<string, string>): string[] {
  try {
    loadConfig(env);
    return [];
  } catch (error) {
    return (error as ConfigError).problems;
  }
}

/** Opens an Orange Money payment (XOF) for one track over HTTP: the 201 answer (QR code, payment id). */
export function orangeMoneyTrackIntent(url: string, auth: { Authorization: string }, trackId: string) {
  return request(url)
    .post('/api/payments/createIntent')
    .set(auth)
    .send({ provider: 'ORANGE_MONEY', currency: 'XOF', trackId })
    .expect(201);
}
