import type { RunEnvironment } from '@programrun/dsl';
import {
  signatureHeader,
  systemClock,
  type BackgroundWorker,
  type BackgroundWorkers,
  type Clock,
  type StopOptions,
  type WebhookDeliveryRow,
  type Webhooks,
} from '@programrun/engine';
import type { Resolver } from './guarded-lookup.js';
import { createWebhookAgents, sendWebhook } from './send-webhook.js';

/** Options of {@link createWebhookDispatcher}. */
export interface WebhookDispatcherOptions {
  /** Requests in flight at once, over every endpoint. @default 16 */
  readonly concurrency?: number;
  /**
   * Deliveries one account may have in flight at once in an environment, counted over
   * every dispatcher sharing the store (their leases), so one account's slow receivers
   * never take every slot: a quarter of them stays free for the others while one account
   * alone still gets most of the throughput. `Infinity` lifts the cap.
   * @default max(1, concurrency - ceil(concurrency / 4)): 12 of 16
   */
  readonly accountConcurrency?: number;
  /**
   * Deliveries one endpoint may have in flight at once, counted the same way, so one
   * receiver's backlog leaves room for its account's other endpoints. `Infinity` lifts the cap.
   * @default max(1, ceil(accountConcurrency / 2)): 6 of 12
   */
  readonly endpointConcurrency?: number;
  /** Whole-request timeout (connect, send, first response bytes). @default 10000 */
  readonly timeoutMs?: number;
  /** How often an idle dispatcher looks for due retries (and other hosts' events). @default 500 */
  readonly pollIntervalMs?: number;
  /** How long a claimed delivery is held before another dispatcher may take it over. @default timeoutMs + 60000 */
  readonly leaseMs?: number;
  /** Wall clock for `webhook-timestamp`, leases and latency. @default systemClock */
  readonly clock?: Clock;
  /** DNS resolver (tests); the system resolver by default. Every answer passes the SSRF guard. */
  readonly resolve?: Resolver;
  /** Called with unexpected failures (a store that is down); the dispatcher keeps going. */
  readonly onError?: (error: unknown) => void;
}

/** Delivers the webhook delivery queue: in the background (`start`) or until nothing is due (`drain`). */
export interface WebhookDispatcher {
  /** Starts delivering in the background: at once when events are queued, and on a poll. */
  start(): void;
  /** Delivers everything due now (retries included) and resolves with the attempts made. */
  drain(): Promise<number>;
  /**
   * Stops claiming at once, lets the requests in flight finish for up to `graceMs`
   * (default 5 s), then aborts the rest, gives back the lease of every delivery it still
   * holds (an aborted attempt is not recorded: the delivery stays due, for any dispatcher),
   * and closes connections.
   */
  stop(options?: StopOptions): Promise<void>;
}

/** How long requests in flight may finish when the dispatcher stops, unless told. */
const STOP_GRACE_MS = 5_000;

/** Thrown out of an attempt the stopping dispatcher aborted: it is released, not settled. */
class AttemptStopped extends Error {
  override readonly name = 'AttemptStopped';
}

const ENVIRONMENTS: readonly RunEnvironment[] = ['live', 'test'];

/** A share option: a whole number from 1, or Infinity (no cap, passed on as absent). */
function share(name: string, value: number): number | undefined {
  if (value === Infinity) return undefined;
  if (!Number.isInteger(value) || value < 1)
    throw new RangeError(`${name} must be a whole number from 1, or Infinity`);
  return value;
}

/**
 * A dispatcher for an engine's webhook deliveries. Requests run with bounded concurrency and a
 * timeout each, apart from run processing, so a slow or dead receiver never slows runs.
 * Slots are shared fairly: accounts take turns at every claim, and each account and each
 * endpoint holds at most its share of them (`accountConcurrency`, `endpointConcurrency`),
 * so one account's dead receivers cannot delay another account's deliveries.
 * Each delivery is POSTed with Standard Webhooks headers: `webhook-id` (the event id, the
 * same on every retry), `webhook-timestamp` and `webhook-signature` (one `v1,` HMAC per
 * valid secret).
 *
 * @example
 * ```ts
 * const dispatcher = createWebhookDispatcher(engine, { concurrency: 16, accountConcurrency: 8 });
 * dispatcher.start();
 * // … on shutdown
 * await dispatcher.stop();
 * ```
 */
export function createWebhookDispatcher(
  engine: { readonly webhooks: Webhooks; readonly background?: BackgroundWorkers },
  options: WebhookDispatcherOptions = {},
): WebhookDispatcher {
  const queue = engine.webhooks.deliveries;
  const concurrency = options.concurrency ?? 16;
  const accountConcurrency =
    options.accountConcurrency ?? Math.max(1, concurrency - Math.ceil(concurrency / 4));
  const endpointConcurrency =
    options.endpointConcurrency ??
    (accountConcurrency === Infinity ? Infinity : Math.max(1, Math.ceil(accountConcurrency / 2)));
  const perAccount = share('accountConcurrency', accountConcurrency);
  const perEndpoint = share('endpointConcurrency', endpointConcurrency);
  const shares = {
    ...(perAccount !== undefined ? { perAccount } : {}),
    ...(perEndpoint !== undefined ? { perEndpoint } : {}),
  };
  const timeoutMs = options.timeoutMs ?? 10_000;
  const pollIntervalMs = options.pollIntervalMs ?? 500;
  const leaseMs = options.leaseMs ?? timeoutMs + 60_000;
  const clock = options.clock ?? systemClock;
  const onError =
    options.onError ?? ((error: unknown) => console.error('programrun webhooks:', error));
  const agents = createWebhookAgents();
  const inFlight = new Set<Promise<void>>();
  // Aborts the requests still in flight when the stop's grace is over.
  const stopping = new AbortController();
  let stopped = false;
  let started = false;
  let poll: ReturnType<typeof setInterval> | undefined;
  let pumping: Promise<void> | null = null;
  let pumpAgain = false;
  let unsubscribe: (() => void) | undefined;
  let registration: BackgroundWorker | undefined;

  /** Gives a claimed delivery back, unless its lease already ended (another may hold it). */
  async function release(delivery: WebhookDeliveryRow): Promise<void> {
    if (delivery.lease_until !== null && Date.parse(delivery.lease_until) > clock.now().getTime())
      await queue.release(delivery);
  }

  async function deliver(delivery: WebhookDeliveryRow): Promise<void> {
    if (stopping.signal.aborted) return release(delivery);
    const prepared = await queue.prepare(delivery);
    if (!prepared) return;
    // The request is sent in the attempt's span, so it carries that span's `traceparent`.
    await queue
      .attempt(prepared, async () => {
        const startedAt = clock.now();
        const timestamp = Math.floor(startedAt.getTime() / 1000);
        const id = delivery.event_id;
        const result = await sendWebhook({
          url: prepared.url,
          headers: {
            'webhook-id': id,
            'webhook-timestamp': String(timestamp),
            'webhook-signature': signatureHeader(prepared.secrets, id, timestamp, prepared.body),
          },
          body: prepared.body,
          timeoutMs,
          environment: delivery.environment,
          allowLoopback: queue.allowLoopback,
          agents,
          signal: stopping.signal,
          ...(options.resolve ? { resolve: options.resolve } : {}),
        });
        if (result.error?.code === 'aborted' && stopping.signal.aborted) throw new AttemptStopped();
        return {
          startedAt,
          status: result.status,
          latencyMs: result.latencyMs,
          error: result.error,
          responseExcerpt: result.responseBody ?? null,
        };
      })
      .catch((error: unknown) => {
        if (error instanceof AttemptStopped) return release(prepared.delivery);
        throw error;
      });
  }

  function launch(delivery: WebhookDeliveryRow): void {
    // Claimed while stopping: given back without an attempt.
    const task: Promise<void> = (stopped ? release(delivery) : deliver(delivery))
      .catch(onError)
      .finally(() => {
        inFlight.delete(task);
        if (started && !stopped) kick();
      });
    inFlight.add(task);
  }

  /**
   * Claims up to the free slots in each environment, within each account's and endpoint's
   * share, and starts them; returns how many.
   */
  async function claimAndLaunch(): Promise<number> {
    let claimed = 0;
    for (const environment of ENVIRONMENTS) {
      const free = concurrency - inFlight.size;
      if (free <= 0 || stopped) break;
      const now = clock.now();
      const leaseUntil = new Date(now.getTime() + leaseMs);
      const rows = await queue.claim(environment, free, now, leaseUntil, shares);
      for (const row of rows) launch(row);
      claimed += rows.length;
    }
    return claimed;
  }

  function kick(): void {
    if (pumping) {
      pumpAgain = true;
      return;
    }
    pumping = (async () => {
      do {
        pumpAgain = false;
        try {
          await claimAndLaunch();
        } catch (error) {
          onError(error);
        }
      } while (pumpAgain && !stopped);
    })().finally(() => {
      pumping = null;
    });
  }

  return {
    start() {
      if (started || stopped) return;
      started = true;
      registration = engine.background?.started('webhook-dispatcher');
      unsubscribe = queue.subscribe(() => setImmediate(kick));
      poll = setInterval(kick, pollIntervalMs);
      poll.unref();
      kick();
    },

    async drain() {
      let attempts = 0;
      for (;;) {
        const claimed = await claimAndLaunch();
        attempts += claimed;
        if (claimed === 0 && inFlight.size === 0) return attempts;
        if (inFlight.size > 0) await Promise.race(inFlight);
      }
    },

    async stop(stopOptions = {}) {
      stopped = true;
      registration?.stopped();
      unsubscribe?.();
      if (poll) clearInterval(poll);
      await pumping;
      let grace: ReturnType<typeof setTimeout> | undefined;
      await Promise.race([
        Promise.allSettled([...inFlight]),
        new Promise((resolve) => {
          grace = setTimeout(resolve, Math.max(0, stopOptions.graceMs ?? STOP_GRACE_MS));
        }),
      ]);
      clearTimeout(grace);
      stopping.abort();
      await Promise.allSettled([...inFlight]);
      agents.destroy();
    },
  };
}
