import type { StoreHealth, StoreV1 } from '../store/store-v1.js';
import type { BackgroundWorkers } from './background-workers.js';

/**
 * What `engine.readiness()` found, check by check, in the shape `GET /readyz` answers:
 * the store answered (`ok`), or failed (`unreachable`) or did not answer in time
 * (`timeout`); its schema is at the version this code expects (`current`), older
 * (`behind`: migrations pending) or newer (`ahead`: this host runs older code), or
 * `unknown` when the store did not answer; the background loops registered with
 * `engine.background` are all running, or one of them stopped.
 *
 * @example
 * ```ts
 * const { checks } = await engine.readiness();
 * checks.store.status; // 'ok'
 * checks.migrations; // { status: 'current', schema_version: 8, expected_version: 8 }
 * checks.background; // { status: 'running', workers: { scheduler: 'running', 'handoff-workers': 'running' } }
 * ```
 */
export interface ReadinessChecks {
  readonly store: { readonly status: 'ok' | 'unreachable' | 'timeout' };
  readonly migrations: {
    readonly status: 'current' | 'behind' | 'ahead' | 'unknown';
    /** Null for a store without schema versions (the memory store) or one that did not answer. */
    readonly schema_version: number | null;
    readonly expected_version: number | null;
  };
  readonly background: {
    readonly status: 'running' | 'stopped';
    readonly workers: Readonly<Record<string, 'running' | 'stopped'>>;
  };
}

/**
 * Whether this engine can serve: the store answers, its migrations are current and every
 * registered background loop runs.
 *
 * @example
 * ```ts
 * const readiness = await engine.readiness();
 * if (!readiness.ready) console.warn('not ready', readiness.checks);
 * ```
 */
export interface Readiness {
  readonly ready: boolean;
  readonly checks: ReadinessChecks;
}

/**
 * Options of `engine.readiness()`.
 *
 * @example
 * ```ts
 * await engine.readiness({ timeoutMs: 500 });
 * ```
 */
export interface ReadinessOptions {
  /** How long the store may take to answer before it counts as `timeout`. @default 2000 */
  readonly timeoutMs?: number;
}

type StoreProbe =
  | { readonly status: 'ok'; readonly health: StoreHealth | null }
  | { readonly status: 'unreachable' | 'timeout' };

/** One round trip: the store's `health()`, else an empty transaction; bounded by `timeoutMs`. */
async function probeStore(store: StoreV1, timeoutMs: number): Promise<StoreProbe> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<StoreProbe>((resolve) => {
    timer = setTimeout(() => resolve({ status: 'timeout' }), timeoutMs);
  });
  const answer: Promise<StoreProbe> = Promise.resolve()
    .then(() => (store.health ? store.health() : store.transaction(() => Promise.resolve(null))))
    .then(
      (health) => ({ status: 'ok', health }),
      () => ({ status: 'unreachable' }),
    );
  try {
    return await Promise.race([answer, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

function migrationsOf(probe: StoreProbe): ReadinessChecks['migrations'] {
  if (probe.status !== 'ok') {
    return { status: 'unknown', schema_version: null, expected_version: null };
  }
  if (!probe.health) return { status: 'current', schema_version: null, expected_version: null };
  const { schemaVersion, expectedVersion } = probe.health;
  return {
    status:
      schemaVersion === expectedVersion
        ? 'current'
        : schemaVersion < expectedVersion
          ? 'behind'
          : 'ahead',
    schema_version: schemaVersion,
    expected_version: expectedVersion,
  };
}

/**
 * The engine's readiness check over its store and background registry. Concurrent calls
 * share one store probe, so a burst of probes costs the store one round trip.
 */
export function createReadiness(
  store: StoreV1,
  background: BackgroundWorkers,
): (options?: ReadinessOptions) => Promise<Readiness> {
  let probing: Promise<StoreProbe> | undefined;
  return async (options = {}) => {
    probing ??= probeStore(store, options.timeoutMs ?? 2000).finally(() => {
      probing = undefined;
    });
    const probe = await probing;
    const workers = background.status();
    const checks: ReadinessChecks = {
      store: { status: probe.status },
      migrations: migrationsOf(probe),
      background: {
        status: Object.values(workers).every((status) => status === 'running')
          ? 'running'
          : 'stopped',
        workers,
      },
    };
    return {
      ready:
        checks.store.status === 'ok' &&
        checks.migrations.status === 'current' &&
        checks.background.status === 'running',
      checks,
    };
  };
}
