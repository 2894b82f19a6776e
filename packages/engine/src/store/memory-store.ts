import type { RunEnvironment } from '@programrun/dsl';
import type { LifecycleRecord } from '../lifecycle/lifecycle-record.js';
import {
  emptyWebhookState,
  MemoryWebhookTables,
  type MemoryWebhookState,
} from './memory-webhook-tables.js';
import { StoreError } from './store-error.js';
import { UndoLog } from './undo-log.js';
import type {
  WebhookAttemptRow,
  WebhookClaim,
  WebhookDeliveryRow,
  WebhookEndpointRow,
  WebhookEventQuery,
  WebhookEventRow,
} from './webhook-rows.js';
import type {
  AccessRequestRow,
  ApiKeyRow,
  IssuerActivationRow,
  TestClockRow,
  TimerClaim,
  TimerQuery,
  IdempotencyRecord,
  Page,
  RunQuery,
  Scope,
  StoredRun,
  StoreTransactionV1,
  StoreV1,
  TimerRow,
} from './store-v1.js';

const scopeKey = (scope: Scope, id: string): string =>
  `${scope.account}\u0000${scope.environment}\u0000${id}`;
const inScope = (scope: Scope, row: { account: string; environment: RunEnvironment }): boolean =>
  row.account === scope.account && row.environment === scope.environment;

interface MemoryState {
  runs: Map<string, StoredRun>;
  runsByKey: Map<string, string>;
  records: Map<string, LifecycleRecord[]>;
  timers: Map<string, TimerRow>;
  /** Wall-clock lease end of claimed timers, by timer id. */
  timerLeases: Map<string, string>;
  /** Pending timers by run id (the only ones queries look at). */
  pendingByRun: Map<string, readonly TimerRow[]>;
  idempotency: Map<string, IdempotencyRecord>;
  accessRequests: Map<string, AccessRequestRow>;
  testClocks: Map<string, TestClockRow>;
  apiKeys: Map<string, ApiKeyRow>;
  apiKeysByHash: Map<string, string>;
  activations: Map<string, IssuerActivationRow>;
  webhooks: MemoryWebhookState;
}

/**
 * One transaction over the memory tables. Transactions run one at a time, so writes go
 * straight to the tables and an undo log restores them if the work throws.
 */
class MemoryTransaction implements StoreTransactionV1 {
  readonly #state: MemoryState;
  readonly #undo = new UndoLog();
  readonly #webhooks: MemoryWebhookTables;

  constructor(state: MemoryState) {
    this.#state = state;
    this.#webhooks = new MemoryWebhookTables(state.webhooks, this.#undo);
  }

  /** Restores every table to what it was before this transaction. */
  rollback(): void {
    this.#undo.rollback();
  }

  #set<V>(table: Map<string, V>, key: string, value: V): void {
    this.#undo.set(table, key, value);
  }

  #delete<V>(table: Map<string, V>, key: string): void {
    this.#undo.delete(table, key);
  }

  insertWebhookEndpoint(endpoint: WebhookEndpointRow): Promise<void> {
    return this.#webhooks.insertEndpoint(endpoint);
  }
  getWebhookEndpoint(scope: Scope, id: string): Promise<WebhookEndpointRow | undefined> {
    return this.#webhooks.getEndpoint(scope, id);
  }
  listWebhookEndpoints(scope: Scope): Promise<WebhookEndpointRow[]> {
    return this.#webhooks.listEndpoints(scope);
  }
  updateWebhookEndpoint(endpoint: WebhookEndpointRow): Promise<void> {
    return this.#webhooks.updateEndpoint(endpoint);
  }
  deleteWebhookEndpoint(scope: Scope, id: string): Promise<void> {
    return this.#webhooks.deleteEndpoint(scope, id);
  }
  insertWebhookEvents(events: readonly WebhookEventRow[]): Promise<void> {
    return this.#webhooks.insertEvents(events);
  }
  getWebhookEvent(scope: Scope, id: string): Promise<WebhookEventRow | undefined> {
    return this.#webhooks.getEvent(scope, id);
  }
  listWebhookEvents(scope: Scope, query: WebhookEventQuery): Promise<Page<WebhookEventRow>> {
    return this.#webhooks.listEvents(scope, query);
  }
  insertWebhookDeliveries(deliveries: readonly WebhookDeliveryRow[]): Promise<void> {
    return this.#webhooks.insertDeliveries(deliveries);
  }
  getWebhookDelivery(scope: Scope, id: string): Promise<WebhookDeliveryRow | undefined> {
    return this.#webhooks.getDelivery(scope, id);
  }
  listWebhookDeliveries(scope: Scope, eventId: string): Promise<WebhookDeliveryRow[]> {
    return this.#webhooks.listDeliveries(scope, eventId);
  }
  updateWebhookDelivery(delivery: WebhookDeliveryRow, expectedAttempts: number): Promise<void> {
    return this.#webhooks.updateDelivery(delivery, expectedAttempts);
  }
  claimWebhookDeliveries(claim: WebhookClaim): Promise<WebhookDeliveryRow[]> {
    return this.#webhooks.claimDeliveries(claim);
  }
  nextWebhookAttempt(environment: RunEnvironment): Promise<string | undefined> {
    return this.#webhooks.nextAttempt(environment);
  }
  appendWebhookAttempt(attempt: WebhookAttemptRow): Promise<void> {
    return this.#webhooks.appendAttempt(attempt);
  }
  listWebhookAttempts(deliveryId: string): Promise<WebhookAttemptRow[]> {
    return this.#webhooks.listAttempts(deliveryId);
  }

  getRun(scope: Scope, id: string): Promise<StoredRun | undefined> {
    const run = this.#state.runs.get(id);
    return Promise.resolve(run && inScope(scope, run) ? run : undefined);
  }

  findRunByIdempotencyKey(scope: Scope, key: string): Promise<StoredRun | undefined> {
    const id = this.#state.runsByKey.get(scopeKey(scope, key));
    return Promise.resolve(id === undefined ? undefined : this.#state.runs.get(id));
  }

  insertRun(run: StoredRun): Promise<void> {
    if (this.#state.runs.has(run.id)) throw new StoreError('duplicate_key', `run ${run.id} exists`);
    if (run.idempotency_key !== null) {
      const key = scopeKey(run, run.idempotency_key);
      if (this.#state.runsByKey.has(key))
        throw new StoreError('duplicate_key', 'idempotency key already used');
      this.#set(this.#state.runsByKey, key, run.id);
    }
    this.#set(this.#state.runs, run.id, run);
    return Promise.resolve();
  }

  updateRun(run: StoredRun, expectedVersion: number): Promise<void> {
    const current = this.#state.runs.get(run.id);
    if (!current || current.version !== expectedVersion) {
      throw new StoreError(
        'version_conflict',
        `run ${run.id} is not at version ${expectedVersion}`,
      );
    }
    this.#set(this.#state.runs, run.id, run);
    return Promise.resolve();
  }

  listRuns(scope: Scope, query: RunQuery): Promise<Page<StoredRun>> {
    const ordered = [...this.#state.runs.values()]
      .filter(
        (run) =>
          inScope(scope, run) &&
          (query.scenario_id === undefined || run.scenario_id === query.scenario_id) &&
          (query.status === undefined || run.status === query.status) &&
          (query.created_gte === undefined || run.created_at >= query.created_gte) &&
          (query.created_lt === undefined || run.created_at < query.created_lt),
      )
      .sort((a, b) =>
        a.created_at === b.created_at
          ? a.id < b.id
            ? 1
            : -1
          : a.created_at < b.created_at
            ? 1
            : -1,
      );
    // A cursor that is not in this list (unknown id, another scope) yields an empty page.
    const start =
      query.starting_after === undefined
        ? 0
        : ordered.findIndex((run) => run.id === query.starting_after) + 1 || ordered.length;
    const data = ordered.slice(start, start + query.limit);
    return Promise.resolve({ data, has_more: start + query.limit < ordered.length });
  }

  appendRecords(scope: Scope, records: readonly LifecycleRecord[]): Promise<void> {
    for (const record of records) {
      const existing = this.#state.records.get(record.run_id) ?? [];
      const last = existing.at(-1)?.sequence ?? 0;
      if (record.sequence <= last) {
        throw new StoreError('duplicate_key', `record ${record.run_id}#${record.sequence} exists`);
      }
      this.#set(this.#state.records, record.run_id, [...existing, record]);
    }
    void scope;
    return Promise.resolve();
  }

  listRecords(
    scope: Scope,
    runId: string,
    options: { afterSequence?: number; limit?: number } = {},
  ): Promise<LifecycleRecord[]> {
    const run = this.#state.runs.get(runId);
    if (!run || !inScope(scope, run)) return Promise.resolve([]);
    const after = options.afterSequence ?? 0;
    const records = (this.#state.records.get(runId) ?? []).filter(
      (record) => record.sequence > after,
    );
    return Promise.resolve(records.slice(0, options.limit ?? records.length));
  }

  scheduleTimers(timers: readonly TimerRow[]): Promise<void> {
    for (const timer of timers) {
      if (this.#state.timers.has(timer.id))
        throw new StoreError('duplicate_key', `timer ${timer.id} exists`);
      this.#set(this.#state.timers, timer.id, timer);
      if (timer.status === 'pending') {
        const pending = this.#state.pendingByRun.get(timer.run_id) ?? [];
        this.#set(this.#state.pendingByRun, timer.run_id, [...pending, timer]);
      }
    }
    return Promise.resolve();
  }

  pendingTimers(runId: string): Promise<TimerRow[]> {
    return Promise.resolve([...(this.#state.pendingByRun.get(runId) ?? [])]);
  }

  settleTimers(ids: readonly string[], status: 'fired' | 'cancelled'): Promise<void> {
    // Settled timers are never read again: drop them so a long-running process does not grow.
    void status;
    for (const id of ids) {
      const timer = this.#state.timers.get(id);
      if (!timer) continue;
      this.#delete(this.#state.timers, id);
      if (this.#state.timerLeases.has(id)) this.#delete(this.#state.timerLeases, id);
      const remaining = (this.#state.pendingByRun.get(timer.run_id) ?? []).filter(
        (item) => item.id !== id,
      );
      if (remaining.length > 0) this.#set(this.#state.pendingByRun, timer.run_id, remaining);
      else this.#delete(this.#state.pendingByRun, timer.run_id);
    }
    return Promise.resolve();
  }

  dueTimers(query: TimerQuery, now: string, limit: number): Promise<TimerRow[]> {
    return Promise.resolve(
      this.#pending(query)
        .filter((timer) => timer.due_at <= now)
        .slice(0, limit),
    );
  }

  claimTimers(claim: TimerClaim): Promise<TimerRow[]> {
    const leases = this.#state.timerLeases;
    const free = (timer: TimerRow): boolean => {
      const lease = leases.get(timer.id);
      return lease === undefined || lease <= claim.lease_now;
    };
    const claimed = this.#pending(claim)
      .filter((timer) => timer.due_at <= claim.due_at && free(timer))
      .slice(0, claim.limit);
    for (const timer of claimed) this.#set(leases, timer.id, claim.lease_until);
    return Promise.resolve(claimed);
  }

  nextTimer(query: TimerQuery): Promise<TimerRow | undefined> {
    return Promise.resolve(this.#pending(query)[0]);
  }

  #pending(query: TimerQuery): TimerRow[] {
    return [...this.#state.pendingByRun.values()]
      .flat()
      .filter(
        (timer) =>
          timer.environment === query.environment &&
          (query.account === undefined || timer.account === query.account),
      )
      .sort((a, b) =>
        a.due_at === b.due_at ? (a.id < b.id ? -1 : 1) : a.due_at < b.due_at ? -1 : 1,
      );
  }

  insertAccessRequest(request: AccessRequestRow): Promise<void> {
    const key = scopeKey(request, request.session_id);
    if (this.#state.accessRequests.has(key)) {
      throw new StoreError('duplicate_key', 'an access request exists for this session');
    }
    this.#set(this.#state.accessRequests, key, request);
    return Promise.resolve();
  }

  getAccessRequestBySession(
    scope: Scope,
    sessionId: string,
  ): Promise<AccessRequestRow | undefined> {
    return Promise.resolve(this.#state.accessRequests.get(scopeKey(scope, sessionId)));
  }

  getTestClock(account: string): Promise<TestClockRow | undefined> {
    return Promise.resolve(this.#state.testClocks.get(account));
  }

  putTestClock(clock: TestClockRow): Promise<void> {
    this.#set(this.#state.testClocks, clock.account, clock);
    return Promise.resolve();
  }

  listTestClocks(): Promise<TestClockRow[]> {
    return Promise.resolve(
      [...this.#state.testClocks.values()].sort((a, b) => (a.account < b.account ? -1 : 1)),
    );
  }

  insertApiKey(key: ApiKeyRow): Promise<void> {
    if (this.#state.apiKeys.has(key.id) || this.#state.apiKeysByHash.has(key.secret_hash)) {
      throw new StoreError('duplicate_key', `api key ${key.id} exists`);
    }
    this.#set(this.#state.apiKeys, key.id, key);
    this.#set(this.#state.apiKeysByHash, key.secret_hash, key.id);
    return Promise.resolve();
  }

  findApiKeyByHash(secretHash: string): Promise<ApiKeyRow | undefined> {
    const id = this.#state.apiKeysByHash.get(secretHash);
    return Promise.resolve(id === undefined ? undefined : this.#state.apiKeys.get(id));
  }

  getApiKey(account: string, id: string): Promise<ApiKeyRow | undefined> {
    const key = this.#state.apiKeys.get(id);
    return Promise.resolve(key?.account === account ? key : undefined);
  }

  listApiKeys(account: string): Promise<ApiKeyRow[]> {
    return Promise.resolve(
      [...this.#state.apiKeys.values()]
        .filter((key) => key.account === account)
        .sort((a, b) =>
          a.created_at === b.created_at
            ? a.id < b.id
              ? -1
              : 1
            : a.created_at < b.created_at
              ? -1
              : 1,
        ),
    );
  }

  updateApiKey(key: ApiKeyRow): Promise<void> {
    const current = this.#state.apiKeys.get(key.id);
    if (!current || current.secret_hash !== key.secret_hash) {
      throw new StoreError('not_found', `api key ${key.id} does not exist`);
    }
    this.#set(this.#state.apiKeys, key.id, key);
    return Promise.resolve();
  }

  getIssuerActivation(account: string, scenario: string): Promise<IssuerActivationRow | undefined> {
    return Promise.resolve(this.#state.activations.get(`${account}\u0000${scenario}`));
  }

  putIssuerActivation(activation: IssuerActivationRow): Promise<void> {
    this.#set(
      this.#state.activations,
      `${activation.account}\u0000${activation.scenario}`,
      activation,
    );
    return Promise.resolve();
  }

  listIssuerActivations(account: string): Promise<IssuerActivationRow[]> {
    return Promise.resolve(
      [...this.#state.activations.values()]
        .filter((activation) => activation.account === account)
        .sort((a, b) => (a.scenario < b.scenario ? -1 : 1)),
    );
  }

  getIdempotencyRecord(scope: Scope, key: string): Promise<IdempotencyRecord | undefined> {
    return Promise.resolve(this.#state.idempotency.get(scopeKey(scope, key)));
  }

  putIdempotencyRecord(record: IdempotencyRecord): Promise<void> {
    this.#set(this.#state.idempotency, scopeKey(record, record.key), record);
    return Promise.resolve();
  }

  deleteIdempotencyRecord(scope: Scope, key: string): Promise<void> {
    this.#delete(this.#state.idempotency, scopeKey(scope, key));
    return Promise.resolve();
  }

  purgeIdempotencyRecords(now: string): Promise<number> {
    let purged = 0;
    for (const [key, record] of [...this.#state.idempotency]) {
      if (record.expires_at <= now) {
        this.#delete(this.#state.idempotency, key);
        purged += 1;
      }
    }
    return Promise.resolve(purged);
  }
}

/**
 * The in-memory store: fast, for unit tests and demos. Transactions run one at a time
 * and roll back through an undo log when their work throws.
 * Rows are kept by reference: callers must treat what they read as immutable (the engine
 * always writes new objects).
 *
 * @example
 * ```ts
 * const engine = createEngine({ store: createMemoryStore(), scenarios });
 * ```
 */
export function createMemoryStore(): StoreV1 {
  const state: MemoryState = {
    runs: new Map(),
    runsByKey: new Map(),
    records: new Map(),
    timers: new Map(),
    timerLeases: new Map(),
    pendingByRun: new Map(),
    idempotency: new Map(),
    accessRequests: new Map(),
    testClocks: new Map(),
    apiKeys: new Map(),
    apiKeysByHash: new Map(),
    activations: new Map(),
    webhooks: emptyWebhookState(),
  };
  let queue: Promise<unknown> = Promise.resolve();
  let closed = false;
  return {
    specificationVersion: 'v1',
    name: 'memory',
    transaction<T>(work: (tx: StoreTransactionV1) => Promise<T>): Promise<T> {
      if (closed) return Promise.reject(new StoreError('store_unavailable', 'the store is closed'));
      const run = queue.then(async () => {
        const transaction = new MemoryTransaction(state);
        try {
          return await work(transaction);
        } catch (error) {
          transaction.rollback();
          throw error;
        }
      });
      queue = run.catch(() => undefined);
      return run;
    },
    close() {
      closed = true;
      return queue.then(() => undefined);
    },
  };
}
