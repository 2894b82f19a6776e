// The unit of work on a real PostgreSQL server: a dispatcher is woken only after the
// transaction that queued deliveries committed (another connection already sees them), and
// a request holding an Idempotency-Key keeps it until it commits, however long it takes:
// a duplicate waits and replays, it never takes the key over.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fileURLToPath } from 'node:url';
import { loadCatalogue } from '@programrun/dsl/node';
import {
  createAccounts,
  createEngine,
  createVirtualClock,
  type Engine,
  type Scope,
  type StoreTransactionV1,
  type StoreV1,
} from '@programrun/engine';
import { createHandler } from '@programrun/http';
import { createPostgresStore } from '../src/index.js';
import { dropSchema, freshSchema, TEST_DATABASE_URL } from './support/test-database.js';

const scope: Scope = { account: 'acct_uow', environment: 'test' };
const scenarios = await loadCatalogue(
  fileURLToPath(new URL('../../../scenarios/', import.meta.url)),
);
const wallet = scenarios.find((scenario) => scenario.id === 'wallet-delivery@v1')!;
const inputs = wallet.definition.example_inputs;

/** A store that reports whether its last transaction committed, and can hold one open. */
function observedStore(inner: StoreV1) {
  let committed = 0;
  let hold: { key: string; entered: () => void; release: Promise<void> } | undefined;
  const store: StoreV1 = {
    ...inner,
    async transaction(work) {
      const result = await inner.transaction((tx) => {
        const observed: StoreTransactionV1 = {
          ...tx,
          async lockIdempotencyRecord(lockScope, key) {
            const record = await tx.lockIdempotencyRecord(lockScope, key);
            const gate = hold;
            if (gate && gate.key === key) {
              hold = undefined;
              gate.entered();
              await gate.release;
            }
            return record;
          },
        };
        return work(observed);
      });
      committed += 1;
      return result;
    },
  };
  return {
    store,
    committed: () => committed,
    /** The next transaction that locks `key` holds it until `release` resolves. */
    holdKey(key: string, release: Promise<void>): Promise<void> {
      return new Promise((entered) => (hold = { key, entered, release }));
    },
  };
}

let schema = '';
let observed: ReturnType<typeof observedStore>;
let engine: Engine;
let client: pg.Client;
const testClock = createVirtualClock('2026-05-01T09:00:00.000Z');
let wallNow = new Date('2026-05-01T09:00:00.000Z');

beforeAll(async () => {
  schema = freshSchema();
  observed = observedStore(
    await createPostgresStore({ connectionString: TEST_DATABASE_URL, schema, maxConnections: 4 }),
  );
  engine = createEngine({ store: observed.store, scenarios: [wallet], testClock });
  client = new pg.Client({ connectionString: TEST_DATABASE_URL });
  await client.connect();
});

afterAll(async () => {
  await client?.end();
  await observed?.store.close();
  if (schema) await dropSchema(schema);
});

describe('the unit of work on PostgreSQL', () => {
  it('wakes a dispatcher only after the commit: another connection already sees the deliveries', async () => {
    await engine.webhooks.createEndpoint(scope, { url: 'https://hooks.example.com/after-commit' });
    const seen: Promise<{ committedBefore: number; visible: number }>[] = [];
    const unsubscribe = engine.webhooks.deliveries.subscribe(() => {
      const committedBefore = observed.committed();
      seen.push(
        client
          .query<{ n: number }>(`SELECT count(*)::int AS n FROM "${schema}".webhook_deliveries`)
          .then(({ rows }) => ({ committedBefore, visible: rows[0]!.n })),
      );
    });
    try {
      const before = observed.committed();
      await engine.createRun(scope, { scenario_id: wallet.id, inputs, idempotency_key: 'wake-1' });
      expect(seen).toHaveLength(1);
      const [wake] = await Promise.all(seen);
      // The listener ran after the creation's transaction had committed, not inside it.
      expect(wake!.committedBefore).toBe(before + 1);
      expect(wake!.visible).toBeGreaterThan(0);
    } finally {
      unsubscribe();
    }
  });

  it('never lets a duplicate take an Idempotency-Key over: it waits for the first and replays it', async () => {
    const accounts = createAccounts({ store: observed.store });
    const { secret } = await accounts.apiKeys.create({
      account: scope.account,
      environment: 'test',
    });
    const handler = createHandler({
      engine,
      accounts,
      rateLimit: false,
      idempotency: { now: () => wallNow },
    });
    const { run } = await engine.createRun(scope, { scenario_id: wallet.id, inputs });
    await engine.advanceTestClock(scope.account, 60); // the screening partner answers
    const approve = (requestKey: string) =>
      handler.handle(
        new Request(`http://localhost/v1/program-runs/${run.id}/approvals`, {
          method: 'POST',
          headers: {
            authorization: `Bearer ${secret}`,
            'content-type': 'application/json',
            'idempotency-key': requestKey,
          },
          body: JSON.stringify({
            step: 'release_approval',
            decision: 'approve',
            approver: 'ops:alice',
          }),
        }),
      );
    let release!: () => void;
    const held = observed.holdKey('approve-1', new Promise((resolve) => (release = resolve)));
    const first = approve('approve-1');
    await held; // the first request holds the key inside its transaction
    // Far past the 60 s in-flight lock of the old two-step protocol.
    wallNow = new Date(wallNow.getTime() + 10 * 60_000);
    const second = approve('approve-1');
    await new Promise((resolve) => setTimeout(resolve, 200));
    release();
    const [answered, replayed] = await Promise.all([first, second]);
    expect(answered.status).toBe(200);
    expect(answered.headers.get('idempotent-replayed')).toBeNull();
    expect(replayed.status).toBe(200);
    expect(replayed.headers.get('idempotent-replayed')).toBe('true');
    expect(replayed.headers.get('original-request-id')).toBe(answered.headers.get('request-id'));
    expect(await replayed.text()).toBe(await answered.text());
    const records = await engine.listEvents(scope, run.id);
    expect(records.filter((record) => record.type === 'program_run.approval.granted')).toHaveLength(
      1,
    );
  });
});
