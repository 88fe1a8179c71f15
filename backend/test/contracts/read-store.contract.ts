import type { Document, ReadStore } from '@kora/kernel';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { unique } from '../support/temp';

export interface ReadStoreFixture {
  store: ReadStore;
  close(): Promise<void>;
}

interface TrackDoc extends Document {
  userId: string;
  filename: string;
  size: number;
  createdAt: string;
  isDemo: boolean;
  status: string | null;
  owner?: { country: string };
}

const DOCS: TrackDoc[] = [
  {
    _id: 't1',
    userId: 'u1',
    filename: 'Éclat du Soir.wav',
    size: 10,
    createdAt: '2026-01-01',
    isDemo: false,
    status: 'PROCESSING',
    owner: { country: 'SN' },
  },
  {
    _id: 't2',
    userId: 'u1',
    filename: 'beat (1).mp3',
    size: 20,
    createdAt: '2026-01-03',
    isDemo: true,
    status: 'PREVIEW_READY',
    owner: { country: 'CI' },
  },
  {
    _id: 't3',
    userId: 'u2',
    filename: 'Voice memo.WAV',
    size: 30,
    createdAt: '2026-01-02',
    isDemo: false,
    status: null,
  },
  {
    _id: 't4',
    userId: 'u1',
    filename: 'éclat final.wav',
    size: 40,
    createdAt: '2026-01-04',
    isDemo: false,
    status: 'FAILED',
    owner: { country: 'SN' },
  },
  {
    _id: 't5',
    userId: 'u3',
    filename: '50% off [demo].wav',
    size: 50,
    createdAt: '2026-01-05',
    isDemo: false,
    status: 'COMPLETED',
  },
];

const ids = (docs: Document[]): string[] => docs.map((d) => d._id);

/** The behaviour every read store adapter must have; collections get unique names per run. */
export function readStoreContract(
  name: string,
  open: () => Promise<ReadStoreFixture>,
  options: { skip?: boolean } = {},
): void {
  ((options.skip ?? false) ? describe.skip : describe)(`ReadStore contract: ${name}`, () => {
    let fixture: ReadStoreFixture;
    let store: ReadStore;
    let collectionName: string;
    beforeAll(async () => {
      fixture = await open();
      store = fixture.store;
    });
    afterAll(async () => fixture?.close());
    beforeEach(async () => {
      collectionName = unique('tracks_');
      const tracks = store.collection<TrackDoc>(collectionName);
      await store.ensureIndexes(collectionName, [{ fields: { userId: 1, createdAt: -1 } }]);
      for (const doc of DOCS) await tracks.upsert(doc);
    });

    it('finds by id, replaces on upsert and deletes', async () => {
      const tracks = store.collection<TrackDoc>(collectionName);
      expect((await tracks.findById('t1'))?.filename).toBe('Éclat du Soir.wav');
      await tracks.upsert({ ...DOCS[0]!, filename: 'renamed.wav' });
      expect(await tracks.findById('t1')).toEqual({ ...DOCS[0]!, filename: 'renamed.wav' });
      expect(await tracks.count()).toBe(5);
      expect(await tracks.deleteById('t1')).toBe(true);
      expect(await tracks.deleteById('t1')).toBe(false);
      expect(await tracks.findById('t1')).toBeNull();
      expect(await store.collection(unique('never_')).findById('x')).toBeNull();
      expect(await store.collection(unique('never_')).count()).toBe(0);
    });

    it('filters by equality, booleans, null, dotted paths, $ne and $exists', async () => {
      const tracks = store.collection<TrackDoc>(collectionName);
      expect(ids(await tracks.find({ userId: 'u1' }))).toEqual(['t1', 't2', 't4']);
      expect(ids(await tracks.find({ userId: 'u1', isDemo: false }))).toEqual(['t1', 't4']);
      expect(ids(await tracks.find({ isDemo: true }))).toEqual(['t2']);
      expect(ids(await tracks.find({ status: null }))).toEqual(['t3']);
      expect(ids(await tracks.find({ 'owner.country': 'SN' }))).toEqual(['t1', 't4']);
      expect(ids(await tracks.find({ status: { $ne: 'FAILED' } }))).toEqual(['t1', 't2', 't3', 't5']);
      expect(ids(await tracks.find({ owner: { $exists: false } }))).toEqual(['t3', 't5']);
      expect(ids(await tracks.find({ owner: { $exists: true } }))).toEqual(['t1', 't2', 't4']);
    });

    it('filters with $in, $nin and ranges', async () => {
      const tracks = store.collection<TrackDoc>(collectionName);
      expect(ids(await tracks.find({ status: { $in: ['FAILED', 'COMPLETED'] } }))).toEqual(['t4', 't5']);
      expect(ids(await tracks.find({ status: { $in: ['FAILED', null] } }))).toEqual(['t3', 't4']);
      expect(ids(await tracks.find({ status: { $nin: ['FAILED', 'COMPLETED'] } }))).toEqual(['t1', 't2', 't3']);
      expect(ids(await tracks.find({ _id: { $in: ['t5', 't2'] } }))).toEqual(['t2', 't5']);
      expect(ids(await tracks.find({ size: { $gte: 20, $lt: 40 } }))).toEqual(['t2', 't3']);
      expect(ids(await tracks.find({ createdAt: { $gt: '2026-01-03' } }))).toEqual(['t4', 't5']);
      expect(ids(await tracks.find({ createdAt: { $lte: '2026-01-02' } }))).toEqual(['t1', 't3']);
    });

    it('matches text case-insensitively, accents included, and literally', async () => {
      const tracks = store.collection<TrackDoc>(collectionName);
      expect(ids(await tracks.find({ filename: { $contains: 'ÉCLAT' } }))).toEqual(['t1', 't4']);
      expect(ids(await tracks.find({ filename: { $contains: '.wav' } }))).toEqual(['t1', 't3', 't4', 't5']);
      expect(ids(await tracks.find({ filename: { $contains: '(1)' } }))).toEqual(['t2']);
      expect(ids(await tracks.find({ filename: { $contains: '50% off [' } }))).toEqual(['t5']);
      expect(ids(await tracks.find({ filename: { $contains: '.*' } }))).toEqual([]);
    });

    it('combines filters with $or and $and', async () => {
      const tracks = store.collection<TrackDoc>(collectionName);
      expect(ids(await tracks.find({ $or: [{ userId: 'u2' }, { isDemo: true }] }))).toEqual(['t2', 't3']);
      expect(ids(await tracks.find({ $and: [{ userId: 'u1' }, { size: { $gt: 15 } }] }))).toEqual(['t2', 't4']);
    });

    it('sorts, skips, limits and counts', async () => {
      const tracks = store.collection<TrackDoc>(collectionName);
      expect(ids(await tracks.find({}, { sort: { createdAt: -1 } }))).toEqual(['t5', 't4', 't2', 't3', 't1']);
      expect(ids(await tracks.find({}, { sort: { createdAt: -1 }, skip: 1, limit: 2 }))).toEqual(['t4', 't2']);
      expect(ids(await tracks.find({ userId: 'u1' }, { sort: { size: 1 }, limit: 2 }))).toEqual(['t1', 't2']);
      expect((await tracks.findOne({ userId: 'u1' }, { sort: { createdAt: -1 } }))?._id).toBe('t4');
      expect(await tracks.count({ userId: 'u1' })).toBe(3);
      expect(await tracks.count({ filename: { $contains: 'wav' } })).toBe(4);
    });

    it('deletes many by filter', async () => {
      const tracks = store.collection<TrackDoc>(collectionName);
      expect(await tracks.deleteMany({ userId: 'u1' })).toBe(3);
      expect(ids(await tracks.find({}))).toEqual(['t3', 't5']);
    });

    it('commits documents and checkpoints together, or neither', async () => {
      const checkpoint = unique('cp_');
      await store.transaction(async (tx) => {
        await tx.collection<TrackDoc>(collectionName).upsert({ ...DOCS[0]!, _id: 'tx1' });
        await tx.setCheckpoint(checkpoint, { position: 7, version: 1 });
        expect((await tx.collection(collectionName).findById('tx1'))?._id).toBe('tx1');
      });
      expect(await store.collection(collectionName).findById('tx1')).not.toBeNull();
      expect(await store.getCheckpoint(checkpoint)).toMatchObject({ position: 7, version: 1 });

      await expect(
        store.transaction(async (tx) => {
          await tx.collection<TrackDoc>(collectionName).upsert({ ...DOCS[0]!, _id: 'tx2' });
          await tx.collection(collectionName).deleteById('t2');
          await tx.setCheckpoint(checkpoint, { position: 9, version: 1 });
          throw new Error('boom');
        }),
      ).rejects.toThrow('boom');
      expect(await store.collection(collectionName).findById('tx2')).toBeNull();
      expect(await store.collection(collectionName).findById('t2')).not.toBeNull();
      expect((await store.getCheckpoint(checkpoint))?.position).toBe(7);
      expect((await store.listCheckpoints()).map((c) => c.name)).toContain(checkpoint);
      await store.deleteCheckpoint(checkpoint);
      expect(await store.getCheckpoint(checkpoint)).toBeNull();
    });

    it('replaces a collection with another inside a transaction', async () => {
      const shadow = `${collectionName}_shadow`;
      await store.ensureIndexes(shadow, [{ fields: { userId: 1, createdAt: -1 } }]);
      await store.collection<TrackDoc>(shadow).upsert({ ...DOCS[0]!, _id: 'fresh' });
      await store.transaction((tx) => tx.replaceCollection(shadow, collectionName));
      expect(ids(await store.collection(collectionName).find({}))).toEqual(['fresh']);
      expect(await store.collection(shadow).count()).toBe(0);
      // the replaced collection still takes indexes and writes
      await store.ensureIndexes(collectionName, [{ fields: { userId: 1, createdAt: -1 } }]);
      await store.ensureIndexes(shadow, [{ fields: { userId: 1, createdAt: -1 } }]);
      await store.collection<TrackDoc>(collectionName).upsert({ ...DOCS[1]! });
      expect(await store.collection(collectionName).count()).toBe(2);
      await store.dropCollection(collectionName);
      expect(await store.collection(collectionName).count()).toBe(0);
    });

    it('answers a ping', async () => {
      await expect(store.ping()).resolves.toBeUndefined();
    });
  });
}
