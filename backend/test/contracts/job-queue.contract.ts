import { uuidv7 } from '@kora/kernel';
import type { JobDoc, JobQueue, NewJob } from '@kora/kernel/nest';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';

export interface JobQueueFixture {
  /** A queue as one worker process sees it (each call: another worker). */
  worker(): JobQueue;
  /** The worker stops without a word (a crash): its held jobs must reach another worker. */
  die(queue: JobQueue): Promise<void>;
  /** How long a delivery may take to reach a worker (0 for a queue read synchronously). */
  readonly deliveryMs: number;
  close(): Promise<void>;
}

const job = (kind: string, subject = uuidv7()): NewJob => ({
  _id: uuidv7(),
  kind,
  subject,
  userId: 'user-1',
  payload: { n: 1 },
  enqueuedAt: new Date().toISOString(),
});

/** The behaviour every job queue adapter must have: one holder at a time, redelivery, removal, idempotent enqueue. */
export function jobQueueContract(
  name: string,
  open: () => Promise<JobQueueFixture>,
  options: { skip?: boolean } = {},
): void {
  ((options.skip ?? false) ? describe.skip : describe)(`JobQueue contract: ${name}`, () => {
    let fixture: JobQueueFixture;
    beforeAll(async () => {
      fixture = await open();
    });
    afterAll(async () => {
      await fixture?.close();
    });

    /** Claims until a job comes or the delivery time has passed. */
    async function claim(queue: JobQueue, workerId: string, kinds: string[]): Promise<JobDoc | null> {
      const deadline = Date.now() + fixture.deliveryMs + 200;
      for (;;) {
        const claimed = await queue.claim(workerId, kinds);
        if (claimed || Date.now() > deadline) return claimed;
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
    }

    it('hands a job enqueued twice to one worker, once, and only to workers of its kind', async () => {
      const kind = `k${uuidv7()}`;
      const [a, b, other] = [fixture.worker(), fixture.worker(), fixture.worker()];
      const one = job(kind);
      await a.enqueue(one);
      await b.enqueue(one);
      expect(await claim(other, 'w-other', [`${kind}-else`])).toBeNull();
      const first = await claim(a, 'w-a', [kind]);
      expect(first).toMatchObject({ _id: one._id, kind, subject: one.subject, payload: { n: 1 }, workerId: 'w-a' });
      expect(await a.renew(first!, 'w-a')).toBe(true);
      expect(await claim(b, 'w-b', [kind])).toBeNull();
      await a.done(first!);
      expect(await claim(b, 'w-b', [kind])).toBeNull();
    });

    it('gives a released job to another worker, and never hands out a finished one again', async () => {
      const kind = `k${uuidv7()}`;
      const [a, b] = [fixture.worker(), fixture.worker()];
      const one = job(kind);
      await a.enqueue(one);
      const held = await claim(a, 'w-a', [kind]);
      expect(held?._id).toBe(one._id);
      await a.release(held!, 'w-a');
      const again = await claim(b, 'w-b', [kind]);
      expect(again?._id).toBe(one._id);
      await b.done(again!);
      expect(await claim(a, 'w-a', [kind])).toBeNull();
    });

    it('drops the jobs of a subject removed before any worker started them', async () => {
      const kind = `k${uuidv7()}`;
      const a = fixture.worker();
      const gone = job(kind);
      const kept = job(kind);
      await a.enqueue(gone);
      await a.enqueue(kept);
      await a.removeFor(gone.subject);
      const first = await claim(a, 'w-a', [kind]);
      expect(first?._id).toBe(kept._id);
      await a.done(first!);
      expect(await claim(a, 'w-a', [kind])).toBeNull();
    });

    it('hands the job of a worker that died to another', async () => {
      const kind = `k${uuidv7()}`;
      const [a, b] = [fixture.worker(), fixture.worker()];
      const one = job(kind);
      await a.enqueue(one);
      const held = await claim(a, 'w-a', [kind]);
      expect(held?._id).toBe(one._id);
      await fixture.die(a);
      const deadline = Date.now() + 10_000;
      let taken: JobDoc | null = null;
      while (!taken && Date.now() < deadline) taken = await claim(b, 'w-b', [kind]);
      expect(taken).toMatchObject({ _id: one._id, workerId: 'w-b' });
      expect(await a.renew(held!, 'w-a')).toBe(false);
      await b.done(taken!);
    });
  });
}
