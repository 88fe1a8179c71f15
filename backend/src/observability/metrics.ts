import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';

/** The server's Prometheus metrics, in one registry served at GET /metrics. */
export class Metrics {
  readonly registry = new Registry();

  readonly httpDuration = new Histogram({
    name: 'kora_http_request_duration_seconds',
    help: 'HTTP request latency by method, route and status',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [this.registry],
  });

  readonly eventsAppended = new Counter({
    name: 'kora_events_appended_total',
    help: 'Events durably appended to the event store by this process',
    registers: [this.registry],
  });

  /**
   * Per connection answered before its request body ended (a refused upload): the bytes read and thrown away after
   * the answer, before the connection closed (bounded by `DISCARD_LIMITS`).
   */
  readonly discardedBody = new Histogram({
    name: 'kora_http_discarded_body_bytes',
    help: 'Request body bytes read and discarded after an early answer, per connection',
    buckets: [0, 65_536, 1_048_576, 4_194_304, 4_259_840, 8_388_608, 16_777_216],
    registers: [this.registry],
  });

  /**
   * Requests whose head has been read and whose answer has not ended: long uploads, and bodies that stall (held up to
   * `BODY_IDLE_MS`). Thousands here with little traffic is a slow-body attack being held; see docs/operations.md.
   */
  readonly requestsInProgress = new Gauge({
    name: 'kora_http_requests_in_progress',
    help: 'HTTP requests read and not yet answered (or closed) on this process',
    registers: [this.registry],
  });

  /** Where the projection lag comes from; read at each scrape. */
  lagSource: (() => Array<{ name: string; lag: number }>) | null = null;

  readonly projectionLag: Gauge<'projection'>;

  readonly socketConnections = new Gauge({
    name: 'kora_socket_connections',
    help: 'Open Socket.IO connections on this process',
    registers: [this.registry],
  });

  constructor() {
    collectDefaultMetrics({ register: this.registry, prefix: 'kora_' });
    const lagSource = (): Array<{ name: string; lag: number }> => this.lagSource?.() ?? [];
    this.projectionLag = new Gauge({
      name: 'kora_projection_lag_events',
      help: 'Events in the log that a projection had not processed at its last step',
      labelNames: ['projection'] as const,
      registers: [this.registry],
      collect() {
        for (const { name, lag } of lagSource()) this.set({ projection: name }, lag);
      },
    });
  }
}
