// GET /v1/program-runs with the console's filters: `stage`, `awaiting` and `q` (exact run
// id, session id, creating Idempotency-Key or source path), with the other filters and the
// cursor; bad values refused with a pointer; `awaiting.decisions` on the runs listed.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OTHER_TEST_KEY, startTestServer, type TestServer } from './harness.js';

const walletInputs = {
  amount: '125.00',
  destination_wallet_address: '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
  network: 'base',
};

interface ListedRun {
  id: string;
  stage: string | null;
  awaiting: { kind: string; decisions: unknown[] | null } | null;
}

let server: TestServer;
const runs: string[] = [];

/** Creates a wallet run named `n` in every way `q` searches. */
async function createRun(n: number, key?: string): Promise<string> {
  const response = await server.request('POST', '/v1/program-runs', {
    body: {
      scenario_id: 'wallet-delivery@v1',
      inputs: walletInputs,
      session_id: `sess_list_${n}`,
      source_path: `/shop/${n}`,
    },
    headers: { 'idempotency-key': `order-list-${n}` },
    ...(key === undefined ? {} : { key }),
  });
  expect(response.status).toBe(201);
  return ((await response.json()) as { id: string }).id;
}

const advance = (seconds: number) =>
  server.request('POST', '/v1/test_helpers/clock/advance', { body: { seconds } });

async function list(query: string, key?: string) {
  const response = await server.request('GET', `/v1/program-runs?${query}`, {
    ...(key === undefined ? {} : { key }),
  });
  expect(response.status, query).toBe(200);
  const page = (await response.json()) as { data: ListedRun[]; has_more: boolean };
  return { ids: page.data.map((run) => run.id), has_more: page.has_more, data: page.data };
}

const ids = async (query: string) => (await list(query)).ids;

beforeAll(async () => {
  server = await startTestServer('handle');
  // Run 1 is screened after 20 s and waits for its release approval; 2 and 3 are in intake.
  runs.push(await createRun(1));
  await advance(20);
  runs.push(await createRun(2));
  await advance(1);
  runs.push(await createRun(3));
  // The same names in another account: never found from this one.
  await createRun(2, OTHER_TEST_KEY);
});
afterAll(() => server.close());

describe('GET /v1/program-runs filters', () => {
  it('lists runs by current stage and by the kind of step they wait on', async () => {
    const [first, second, third] = runs as [string, string, string];
    expect(await ids('stage=release')).toEqual([first]);
    expect(await ids('stage=intake')).toEqual([third, second]);
    expect(await ids('stage=nowhere')).toEqual([]);
    const approvals = await list('awaiting=approval');
    expect(approvals.ids).toEqual([first]);
    expect(approvals.data[0]!.awaiting).toMatchObject({ kind: 'approval', decisions: [] });
    const handoffs = await list('awaiting=handoff');
    expect(handoffs.ids).toEqual([third, second]);
    expect(handoffs.data.map((run) => run.awaiting?.decisions)).toEqual([null, null]);
    expect(await ids('awaiting=timer')).toEqual([]);
  });

  it('finds a run by its id, session id, creating Idempotency-Key or source path, exactly', async () => {
    const second = runs[1]!;
    for (const q of [second, 'sess_list_2', 'order-list-2', '/shop/2'])
      expect(await ids(`q=${encodeURIComponent(q)}`), q).toEqual([second]);
    for (const q of ['sess_list_', 'SESS_LIST_2', '/shop', 'order-list-2 ', 'x'.repeat(2048)])
      expect(await ids(`q=${encodeURIComponent(q)}`), q).toEqual([]);
  });

  it('combines every filter and pages through the result with the cursor', async () => {
    const [first, second, third] = runs as [string, string, string];
    expect(await ids('stage=intake&awaiting=handoff&status=waiting')).toEqual([third, second]);
    expect(await ids('q=sess_list_2&stage=release')).toEqual([]);
    expect(await ids(`stage=release&scenario_id=wallet-delivery@v1`)).toEqual([first]);
    expect(await ids(`awaiting=handoff&scenario_id=bank-payout@v1`)).toEqual([]);
    const { created_at: created } = (await (
      await server.request('GET', `/v1/program-runs/${third}`)
    ).json()) as { created_at: string };
    expect(await ids(`stage=intake&created[gte]=${created}`)).toEqual([third]);
    expect(await ids(`awaiting=handoff&created[lt]=${created}`)).toEqual([second]);
    const page = await list('stage=intake&limit=1');
    expect(page).toMatchObject({ ids: [third], has_more: true });
    expect(await list(`stage=intake&limit=1&starting_after=${third}`)).toMatchObject({
      ids: [second],
      has_more: false,
    });
    // A cursor outside the filtered list gives an empty page.
    expect(await ids(`stage=intake&starting_after=${first}`)).toEqual([]);
  });

  it('refuses bad filter values with a pointer', async () => {
    const refusal = async (query: string) => {
      const response = await server.request('GET', `/v1/program-runs?${query}`);
      expect(response.headers.get('content-type')).toBe('application/problem+json');
      const problem = (await response.json()) as {
        code: string;
        errors: { pointer: string; message: string }[];
      };
      return {
        status: response.status,
        code: problem.code,
        pointers: problem.errors.map((e) => e.pointer),
      };
    };
    const refused = (pointer: string) => ({
      status: 422,
      code: 'invalid_query',
      pointers: [pointer],
    });
    expect(await refusal('awaiting=webhook')).toEqual(refused('/awaiting'));
    expect(await refusal('awaiting=')).toEqual(refused('/awaiting'));
    expect(await refusal('q=')).toEqual(refused('/q'));
    expect(await refusal('stage=')).toEqual(refused('/stage'));
    expect(await refusal('q=%00')).toEqual(refused('/q'));
    expect(await refusal(`q=${'x'.repeat(2049)}`)).toEqual(refused('/q'));
    expect(await refusal(`stage=${'x'.repeat(256)}`)).toEqual(refused('/stage'));
  });
});
