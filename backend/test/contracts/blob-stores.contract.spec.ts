import { MongoClient } from 'mongodb';
import { GridFsBlobStore } from '../../src/infra/blobs/gridfs-blob-store';
import { LocalBlobStore } from '../../src/infra/blobs/local-blob-store';
import { tempDir } from '../support/temp';
import { blobStoreContract } from './blob-store.contract';

blobStoreContract('local directory', async () => {
  const dir = tempDir();
  return { store: new LocalBlobStore(dir.path), close: async () => dir.cleanup() };
});

const mongoUrl = process.env.MONGODB_URL ?? '';
blobStoreContract(
  'MongoDB GridFS (MONGODB_URL)',
  async () => {
    const client = await new MongoClient(mongoUrl).connect();
    return { store: new GridFsBlobStore(client), close: () => client.close() };
  },
  { skip: mongoUrl === '' },
);
