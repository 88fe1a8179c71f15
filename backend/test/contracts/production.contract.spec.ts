import { EsdbEventStore } from '../../src/infra/event-store/esdb-event-store';
import { MongoReadStore } from '../../src/infra/read-store/mongo-read-store';
import { eventStoreContract } from './event-store.contract';
import { readStoreContract } from './read-store.contract';

/**
 * The same contract suites against the production engines. They are skipped (and reported as skipped) unless an
 * operator points the variables at a cluster:
 *   EVENTSTORE_URL=esdb://localhost:2113?tls=false MONGODB_URL=mongodb://localhost:27017/kora_test npm test
 */
const eventStoreUrl = process.env.EVENTSTORE_URL ?? '';
const mongoUrl = process.env.MONGODB_URL ?? '';

eventStoreContract(
  'EventStoreDB (EVENTSTORE_URL)',
  async () => {
    const store = new EsdbEventStore(eventStoreUrl, { pollIntervalMs: 200 });
    return { store, close: () => store.close() };
  },
  { skip: eventStoreUrl === '' },
);

readStoreContract(
  'MongoDB (MONGODB_URL)',
  async () => {
    const store = await MongoReadStore.connect(mongoUrl);
    return { store, close: () => store.close() };
  },
  { skip: mongoUrl === '' },
);
