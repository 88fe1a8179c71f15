import { type JobDoc, JobQueue, JOBS, JobRunner, type ReadStoreJobQueue } from '@kora/kernel/nest';
import { EventStore, ReadStore } from '@kora/kernel';
import { trackStream } from '@kora/audio/contracts';
import request from 'supertest';
import { afterAll, describe, expect, it } from '@jest/globals';
import { registeredUser } from '../support/accounts';
import { makeMedia } from '../support/media';
import { startTestApp, type TestApp } from '../support/test-app';
import { tempDir } from '../support/temp';

async function statusOf(test: TestApp, auth: Record<string, string>, id: string): Promise<string> {
  return (await request(test.url).get(`/api/audio/track/${id}/status`).set(auth).expect(200)).body.status as string;
}

async function until(
  check: () => Promise<boolean>,
  timeoutMs: number,
  seen: () => Promise<unknown> = async () => undefined,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out; seen last: ${JSON.stringify(await seen())}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

describe('jobs survive their workers', () => {
  const data = tempDir('kora-recovery-');
  const media = tempDir('kora-media-');
  const files = makeMedia(media.path);
  afterAll(() => {
    data.cleanup();
    media.cleanup();
  });

  it('finishes a job after a restart in the middle of it, and takes again a job whose worker died', async () => {
    // The same public address for both runs, so the user's token (its issuer) stays valid across the restart.
    const env = { JOB_LEASE_MS: '1500', PUBLIC_URL: 'http://kora.test' };
    const first = await startTestApp({ realAuth: true, dataDir: data.path, env });
    const user = await registeredUser(first, { email: 'moussa@example.ci' });
    const uploaded = await request(first.url)
      .post('/api/audio/upload')
      .set(user.auth)
      .field('service', 'AUDIO_ENHANCEMENT')
      .field('preset', 'podcast')
      .attach('file', files.voice(90))
      .expect(201);
    const id = uploaded.body.id as string;
    await until(async () => ['ANALYZING', 'ENHANCING'].includes(await statusOf(first, user.auth, id)), 30_000);
    await first.close(); // mid-job: the worker hands the job back to the queue

    const second = await startTestApp({ realAuth: true, dataDir: data.path, env });
    try {
      await until(async () => (await statusOf(second, user.auth, id)) === 'PREVIEW_READY', 90_000);
      const history = await second.app.get(EventStore).readStream(trackStream(id));
      const started = history.filter((event) => event.type === 'ProcessingStarted');
      expect(started.length).toBe(2);

      // A worker that vanishes without a word: its lease runs out and another worker takes the job.
      const next = await request(second.url)
        .post('/api/audio/upload')
        .set(user.auth)
        .field('service', 'AI_MASTERING')
        .attach('file', files.music(8))
        .expect(201);
      const runner = second.app.get(JobRunner);
      await runner.beforeApplicationShutdown(); // this process stops working...
      const queue = second.app.get(JobQueue) as ReadStoreJobQueue;
      // The upload's job reaches the queue through the job-requests processor, after the answer: on a loaded machine
      // (run 54, load average 10) that took more than the 10 s this waited. What the queue held is said if it never comes.
      const jobs = () => second.app.get(ReadStore).collection<JobDoc>(JOBS).find({});
      await until(async () => (await queue.pending()) === 1, 60_000, jobs);
      const ghost = await queue.claim('ghost-worker', ['track']); // ...a ghost claims the job and dies
      expect(ghost?.subject).toBe(next.body.id);
      await runner.start();
      await until(async () => (await statusOf(second, user.auth, next.body.id)) === 'PREVIEW_READY', 60_000);
    } finally {
      await second.close();
    }
  }, 240_000);
});
