// Issue 15, "Bounded evaluation": a hostile scenario or hostile inputs must answer fast
// and leave other tenants alone. Before RE2 and the evaluation budget, the nested
// comprehensions below never answered and the 31-character attacks took 3.9 s and 7.1 s
// (×4 per two more characters), blocking every tenant meanwhile.
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compile, formatProblem, loadScenario, type CompiledScenario } from '@programrun/dsl';
import { loadCatalogue } from '@programrun/dsl/node';
import {
  createAccounts,
  createEngine,
  createMemoryStore,
  createVirtualClock,
  seededIds,
} from '@programrun/engine';
import { createHandler, type Handler } from '../src/index.js';
import { evidenceKeys, OTHER_TEST_KEY, TEST_KEY } from './harness.js';

/** A one-step scenario: `inputs` under `properties`, the record step's `data`. */
const fixture = (id: string, inputs: string, data: string) => `scenario: ${id}
version: v1
title: ${id}
summary: A hostile scenario of issue 15.
family: bank_payout
asset_track: public_demo
inputs:
  type: object
  properties:
${inputs}
example_inputs: {}
parties:
  bank: { name: Bank, role: banking }
stages:
  - id: intake
    title: Intake
    steps:
      - id: note
        kind: record
        title: Note
        record: note
        data: { ${data} }
      - { id: pay, kind: handoff, title: Pay, party: bank, action: pay, timeout: PT1H }
`;

const NESTED = "sums: 'inputs.a.all(x, inputs.b.all(y, inputs.c.all(z, x + y + z >= 0)))'";

/** The finding as written: it passed `validate` and hung the server on its first run. */
const FINDING = fixture(
  'nested-finding',
  ['a', 'b', 'c']
    .map((list) => `    ${list}: { type: array, items: { type: integer } }`)
    .join('\n'),
  NESTED,
);

/** The same expression over lists the schema cannot bound: only the run-time budget can. */
const NESTED_UNTYPED = fixture(
  'nested-comprehensions',
  ['a', 'b', 'c'].map((list) => `    ${list}: { description: Any JSON }`).join('\n'),
  NESTED,
);

const PATTERN = fixture(
  'pattern-attack',
  "    name: { type: string, pattern: '^(a+)+$' }",
  "ok: 'true'",
);

const MATCHES = fixture(
  'matches-attack',
  '    name: { type: string }',
  `ok: 'inputs.name.matches("^(a+)+$")'`,
);

const thousand = Array.from({ length: 1000 }, (_, index) => index);
const attacks = {
  nested: {
    scenario_id: 'nested-comprehensions@v1',
    inputs: { a: thousand, b: thousand, c: thousand },
  },
  pattern: { scenario_id: 'pattern-attack@v1', inputs: { name: 'a'.repeat(31) + '!' } },
  matches: { scenario_id: 'matches-attack@v1', inputs: { name: 'a'.repeat(31) + '!' } },
} as const;

const walletCreate = {
  scenario_id: 'wallet-delivery@v1',
  inputs: {
    amount: '125.00',
    destination_wallet_address: '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
    network: 'base',
  },
};

let handler: Handler;
let keys = 0;
/** The slowest hostile answer measured, what a concurrent create may have to wait for. */
let slowest = 0;

beforeAll(async () => {
  const catalogue = await loadCatalogue(
    fileURLToPath(new URL('../../../scenarios/', import.meta.url)),
  );
  const hostile: CompiledScenario[] = [NESTED_UNTYPED, PATTERN, MATCHES].map((text) =>
    compile(text),
  );
  const store = createMemoryStore();
  const engine = createEngine({
    store,
    scenarios: [...catalogue, ...hostile],
    testClock: createVirtualClock('2026-03-02T09:00:00.000Z'),
    ids: seededIds('bounded-evaluation'),
    evidence: { keys: evidenceKeys },
  });
  const accounts = createAccounts({ store, ids: seededIds('bounded-evaluation') });
  await accounts.apiKeys.create({ account: 'acct_one', environment: 'test', secret: TEST_KEY });
  await accounts.apiKeys.create({
    account: 'acct_two',
    environment: 'test',
    secret: OTHER_TEST_KEY,
  });
  handler = createHandler({
    engine,
    accounts,
    rateLimit: { requestsPerSecond: 100_000, burst: 100_000 },
  });
});

afterAll(() => {
  handler = undefined as never;
});

/** Creates a run and measures how long the answer took, body read included. */
async function create(
  body: unknown,
  key = TEST_KEY,
): Promise<{ status: number; body: Record<string, unknown>; ms: number }> {
  const started = performance.now();
  const response = await handler.handle(
    new Request('http://programrun.test/v1/program-runs', {
      method: 'POST',
      headers: {
        authorization: `Bearer ${key}`,
        'content-type': 'application/json',
        'idempotency-key': `bounded-${(keys += 1)}`,
      },
      body: JSON.stringify(body),
    }),
  );
  const parsed = (await response.json()) as Record<string, unknown>;
  return { status: response.status, body: parsed, ms: performance.now() - started };
}

const percentile = (values: readonly number[], p: number): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
};

const round = (ms: number): number => Math.round(ms * 10) / 10;

describe('bounded evaluation over HTTP', () => {
  it('refuses the finding’s scenario at load time', () => {
    const result = loadScenario(FINDING, { file: 'scenarios/nested-finding@v1.yaml' });
    expect(result.ok).toBe(false);
    expect(result.problems.map(formatProblem)).toEqual([
      expect.stringMatching(
        /^scenarios\/nested-finding@v1\.yaml:24:24: unbounded_expression inputs\.a has no maxItems/,
      ),
      expect.stringMatching(/:24:40: unbounded_expression inputs\.b has no maxItems/),
      expect.stringMatching(/:24:56: unbounded_expression inputs\.c has no maxItems/),
    ]);
  });

  it('answers the hostile scenario and the hostile inputs within 100 ms', async ({ annotate }) => {
    // Warm up: the first request of a scenario compiles its validators.
    for (const body of [...Object.values(attacks), walletCreate]) await create(body);

    const timings: Record<string, number[]> = {};
    for (let attempt = 0; attempt < 5; attempt += 1) {
      (timings.normal ??= []).push((await create(walletCreate)).ms);
      for (const [name, body] of Object.entries(attacks)) {
        const answer = await create(body);
        (timings[name] ??= []).push(answer.ms);
        if (name === 'nested') {
          expect(answer.status).toBe(201);
          expect(answer.body).toMatchObject({
            status: 'faulted',
            outcome: { step: 'note', reason: 'expression_budget_exceeded' },
          });
        } else if (name === 'pattern') {
          expect(answer.status).toBe(422);
          expect(answer.body).toMatchObject({ code: 'invalid_inputs' });
        } else {
          expect(answer.status).toBe(201);
          expect(answer.body).toMatchObject({ status: 'waiting' });
        }
      }
    }
    slowest = Math.max(...Object.keys(attacks).flatMap((name) => timings[name]!));
    await annotate(
      Object.entries(timings)
        .map(
          ([name, ms]) =>
            `${name}: median ${round(percentile(ms, 50))} ms, max ${round(Math.max(...ms))} ms`,
        )
        .join('; '),
    );
    // The goal is 100 ms (a quiet machine answers the nested scenario in ~20 ms and the
    // others in ~2 ms); the assertion leaves a loaded CI machine a tenfold margin.
    for (const name of Object.keys(attacks))
      expect(Math.max(...timings[name]!)).toBeLessThan(1_000);
  });

  it('keeps another tenant’s create p99 while the attacks run', async ({ annotate }) => {
    const TENANT_CREATES = 150;
    const tenant = async (): Promise<number[]> => {
      const latencies: number[] = [];
      for (let index = 0; index < TENANT_CREATES; index += 1) {
        const answer = await create(walletCreate, OTHER_TEST_KEY);
        expect(answer.status).toBe(201);
        latencies.push(answer.ms);
      }
      return latencies;
    };
    for (let index = 0; index < 20; index += 1) await create(walletCreate, OTHER_TEST_KEY);
    // The tenant's creates while another caller's requests keep coming, one after another:
    // ordinary creates first (what sharing the process costs on this machine, now), then
    // the hostile ones. Only the difference is the attacks' doing.
    const whileOthersCreate = async (bodies: readonly unknown[]) => {
      let running = true;
      let sent = 0;
      const theirs: number[] = [];
      const others = (async () => {
        while (running) {
          theirs.push((await create(bodies[sent % bodies.length])).ms);
          sent += 1;
        }
      })();
      const latencies = await tenant();
      running = false;
      await others;
      return { latencies, sent, slowest: Math.max(...theirs) };
    };
    const ordinary = await whileOthersCreate([walletCreate]);
    const attacked = await whileOthersCreate(Object.values(attacks));
    const attacks_sent = attacked.sent;

    const before = percentile(ordinary.latencies, 99);
    const during = percentile(attacked.latencies, 99);
    await annotate(
      `another tenant's create p99: ${round(before)} ms beside ${ordinary.sent} ordinary creates, ${round(during)} ms during ${attacks_sent} attacks (the slowest ${round(attacked.slowest)} ms)`,
    );
    expect(attacks_sent).toBeGreaterThan(TENANT_CREATES / 2);
    // Every hostile request is cut off at the budget (bounded however loaded the machine
    // is: never the seconds, or forever, it took before the fix), so a create waits for at
    // most one or two of them, as long as they take on this machine now.
    expect(attacked.slowest).toBeLessThan(1_000);
    expect(during).toBeLessThan(before + 2 * Math.max(slowest, attacked.slowest) + 50);
    expect(during).toBeLessThan(1_000);
  });
});
