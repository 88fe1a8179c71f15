import { ProjectionRunner } from '@kora/kernel';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { BusWitness, notesProjection, NotesTestModule } from '../support/notes-feature';
import { startTestApp, type TestApp } from '../support/test-app';
import { waitUntil } from '../contracts/event-store.contract';

describe('command handling and the durable event bus', () => {
  let test: TestApp;
  let alice: string;
  beforeAll(async () => {
    test = await startTestApp({ modules: [NotesTestModule], projections: [notesProjection] });
    alice = await test.token('alice');
  });
  afterAll(() => test.close());

  it('loads, decides and appends, then delivers the event to the bus only once it is stored', async () => {
    const witness = test.app.get(BusWitness);
    const response = await request(test.url)
      .post('/api/test/notes')
      .set('Authorization', `Bearer ${alice}`)
      .send({ noteId: 'n1', text: 'Bonjour Dakar' })
      .expect(201);
    expect(response.body).toMatchObject({ noteId: 'n1', position: expect.any(Number) });
    await waitUntil(() => witness.seen.some((s) => s.event.data.noteId === 'n1'));
    const delivered = witness.seen.find((s) => s.event.data.noteId === 'n1')!;
    expect(delivered.storedAtDelivery).toBe(true);
    expect(delivered.event).toMatchObject({
      type: 'NoteWritten',
      streamName: 'note-n1',
      revision: 0,
      position: response.body.position,
      metadata: { userId: 'alice', schemaVersion: 1 },
    });
  });

  it('treats a repeated command as a no-op when the decider says nothing changes', async () => {
    await request(test.url)
      .post('/api/test/notes')
      .set('Authorization', `Bearer ${alice}`)
      .send({ noteId: 'n2', text: 'a' });
    const again = await request(test.url)
      .post('/api/test/notes')
      .set('Authorization', `Bearer ${alice}`)
      .send({ noteId: 'n2', text: 'a' })
      .expect(201);
    expect(again.body.position).toBeNull();
  });

  it('answers a business rule refusal with its code, and a stale expected revision with a 409', async () => {
    await request(test.url)
      .post('/api/test/notes')
      .set('Authorization', `Bearer ${alice}`)
      .send({ noteId: 'n3', text: 'v0' });
    for (let i = 1; i <= 3; i += 1) {
      await request(test.url)
        .post('/api/test/notes/n3/edit')
        .set('Authorization', `Bearer ${alice}`)
        .send({ text: `v${i}` })
        .expect(201);
    }
    const refused = await request(test.url)
      .post('/api/test/notes/n3/edit')
      .set('Authorization', `Bearer ${alice}`)
      .send({ text: 'v4' })
      .expect(409);
    expect(refused.body).toEqual({
      statusCode: 409,
      code: 'NOTES.EDIT_LIMIT',
      message: 'A note can be edited three times',
    });

    const witness = test.app.get(BusWitness);
    const before = witness.seen.length;
    const stale = await request(test.url)
      .post('/api/test/notes/n3/edit')
      .set('Authorization', `Bearer ${alice}`)
      .send({ text: 'late', expectedRevision: 1 })
      .expect(409);
    expect(stale.body.code).toBe('EVENTSTORE.WRONG_EXPECTED_REVISION');
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(witness.seen.slice(before).some((s) => s.event.data.text === 'late')).toBe(false);
  });

  it('answers invalid input with 400 and a code per field, writing nothing', async () => {
    const head = await test.app.get(ProjectionRunner).status();
    const response = await request(test.url)
      .post('/api/test/notes')
      .set('Authorization', `Bearer ${alice}`)
      .send({})
      .expect(400);
    expect(response.body).toEqual({
      statusCode: 400,
      code: 'VALIDATION.FAILED',
      message: 'The request is not valid',
      fields: { text: 'notes.errors.textRequired' },
    });
    expect((await test.app.get(ProjectionRunner).status())[0]!.head).toBe(head[0]!.head);
  });

  it('keeps the read model in step, each user seeing only their own documents', async () => {
    const bob = await test.token('bob');
    const written = await request(test.url)
      .post('/api/test/notes')
      .set('Authorization', `Bearer ${bob}`)
      .send({ noteId: 'b1', text: 'Abidjan' });
    expect(await test.app.get(ProjectionRunner).waitFor(written.body.position)).toBe(true);
    const mine = await request(test.url).get('/api/test/notes/mine').set('Authorization', `Bearer ${bob}`).expect(200);
    expect(mine.body.map((d: { _id: string }) => d._id)).toEqual(['b1']);
    const alices = await request(test.url)
      .get('/api/test/notes/mine')
      .set('Authorization', `Bearer ${alice}`)
      .expect(200);
    expect(alices.body.map((d: { _id: string }) => d._id)).toEqual(['n1', 'n2', 'n3']);
  });

  it('refuses requests without a valid bearer token with the same 401', async () => {
    const expected = { statusCode: 401, code: 'AUTH.REQUIRED', message: 'Authentication required' };
    expect((await request(test.url).get('/api/test/notes/mine').expect(401)).body).toEqual(expected);
    expect(
      (await request(test.url).get('/api/test/notes/mine').set('Authorization', 'Bearer nonsense').expect(401)).body,
    ).toEqual(expected);
    const expired = await test.token('alice', { expiresIn: '-1m' });
    expect(
      (await request(test.url).get('/api/test/notes/mine').set('Authorization', `Bearer ${expired}`).expect(401)).body,
    ).toEqual(expected);
    const { LocalTokenVerifier } = await import('../support/local-token-verifier');
    const forged = await new LocalTokenVerifier('another-secret-another-secret-another-1').sign('alice');
    expect(
      (await request(test.url).get('/api/test/notes/mine').set('Authorization', `Bearer ${forged}`).expect(401)).body,
    ).toEqual(expected);
  });
});
