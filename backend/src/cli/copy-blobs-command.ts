import '../runtime/refuse-unsupported-runtime';
import { MongoClient } from 'mongodb';
import { join, resolve } from 'node:path';
import { ConfigError, loadConfig } from '../config/config';
import { GridFsBlobStore } from '../infra/blobs/gridfs-blob-store';
import { LocalBlobStore } from '../infra/blobs/local-blob-store';
import { copyBlobs } from './copy-blobs';

const USAGE = `Usage: npm run copy-blobs -- --to <mongodb://host:27017/kora | local:/path/to/blobs>
Copies the files of the embedded installation under DATA_DIR (default ./data/blobs) into MongoDB GridFS (the
BLOB_STORE=gridfs adapter) or another directory, keeping every key and content type. Blobs already there with the
same size are skipped, so it is safe to run again after an interruption. Stop the server first.`;

async function main(): Promise<number> {
  const args = process.argv.slice(2);
  const to = args[args.indexOf('--to') + 1];
  if (!args.includes('--to') || !to || !/^(mongodb(\+srv)?:\/\/|local:)/.test(to)) {
    console.log(USAGE);
    return 2;
  }
  const config = loadConfig({ ...process.env, EVENTSTORE_URL: undefined, MONGODB_URL: undefined });
  const source = new LocalBlobStore(join(config.DATA_DIR, 'blobs'));
  const client = to.startsWith('local:') ? null : await new MongoClient(to).connect();
  const target = client ? new GridFsBlobStore(client) : new LocalBlobStore(resolve(to.slice('local:'.length)));
  try {
    let last = 0;
    const result = await copyBlobs(source, target, (progress) => {
      if (Date.now() - last < 1_000) return;
      last = Date.now();
      process.stderr.write(
        `copy-blobs: ${progress.copied} copied (${(progress.bytes / 2 ** 20).toFixed(1)} MB), ${progress.skipped} already there\n`,
      );
    });
    console.log(
      `Copied ${result.copied} blobs (${(result.bytes / 2 ** 20).toFixed(1)} MB); ${result.skipped} were already there.`,
    );
    return 0;
  } finally {
    await client?.close();
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error instanceof ConfigError ? error.message : error);
    process.exit(1);
  },
);
