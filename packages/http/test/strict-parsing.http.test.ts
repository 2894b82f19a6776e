import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './harness.js';

// Lenient parsing is gone: integers are canonical decimals, dates exist, the zero
// address is no destination, and hostile text is refused with a pointer, not a 500.

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer('handle');
});
afterAll(async () => {
  await server.close();
});

const wallet = {
  amount: '125.00',
  destination_wallet_address: '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
  network: 'base',
};

/** The status, code and `pointer: message` of each field of an answer. */
async function refusal(response: Response) {
  const problem = (await response.json()) as {
    code: string;
    errors: { pointer: string; message: string }[];
  };
  return {
    status: response.status,
    code: problem.code,
    fields: problem.errors.map((field) => `${field.pointer} ${field.message}`),
  };
}

describe('query integers', () => {
  it.each(['1e2', '0x10', '+5', '%205', '5%20', '05', '1.5', '-0', '', 'Infinity'])(
    'refuses limit=%s with a pointer',
    async (limit) => {
      expect(await refusal(await server.request('GET', `/v1/program-runs?limit=${limit}`))).toEqual(
        {
          status: 422,
          code: 'invalid_query',
          fields: ['/limit must be an integer from 1 to 100'],
        },
      );
    },
  );

  it('accepts canonical integers and refuses an after_sequence beyond a SQL integer', async () => {
    expect((await server.request('GET', '/v1/program-runs?limit=100')).status).toBe(200);
    const created = await server.request('POST', '/v1/program-runs', {
      body: { scenario_id: 'wallet-delivery@v1', inputs: wallet },
      headers: { 'idempotency-key': 'strict-parsing-1' },
    });
    const { id } = (await created.json()) as { id: string };
    const events = (sequence: string) =>
      server.request('GET', `/v1/program-runs/${id}/events?after_sequence=${sequence}`);
    expect((await events('2147483647')).status).toBe(200);
    for (const sequence of ['2147483648', '4294967296', '99999999999999999999'])
      expect(await refusal(await events(sequence))).toEqual({
        status: 422,
        code: 'invalid_query',
        fields: ['/after_sequence must be an integer from 0 to 2147483647'],
      });
  });
});

describe('dates', () => {
  it('refuses a day that does not exist in a query instead of rolling it over', async () => {
    for (const time of ['2026-02-30T00:00:00Z', '2026-02-29T00:00:00Z', '2026-04-31T00:00:00Z'])
      expect(
        await refusal(await server.request('GET', `/v1/program-runs?created[gte]=${time}`)),
      ).toMatchObject({ status: 422, code: 'invalid_query' });
    expect(
      (await server.request('GET', '/v1/program-runs?created[gte]=2028-02-29T00:00:00Z')).status,
    ).toBe(200);
  });

  it('refuses a date input that does not exist', async () => {
    const scenario = (await (
      await server.request('GET', '/v1/scenarios/treasury-conversion@v1')
    ).json()) as { example_inputs: Record<string, unknown> };
    const answer = await server.request('POST', '/v1/program-runs', {
      body: {
        scenario_id: 'treasury-conversion@v1',
        inputs: { ...scenario.example_inputs, value_date: '2026-02-30' },
      },
      headers: { 'idempotency-key': 'strict-parsing-2' },
    });
    expect(await refusal(answer)).toMatchObject({
      status: 422,
      code: 'invalid_inputs',
      fields: [expect.stringMatching(/^\/inputs\/value_date /)],
    });
  });
});

describe('destinations', () => {
  it('refuses the zero (burn) address as a wallet destination', async () => {
    const answer = await server.request('POST', '/v1/program-runs', {
      body: {
        scenario_id: 'wallet-delivery@v1',
        inputs: { ...wallet, destination_wallet_address: `0x${'0'.repeat(40)}` },
      },
      headers: { 'idempotency-key': 'strict-parsing-3' },
    });
    expect(await refusal(answer)).toEqual({
      status: 422,
      code: 'invalid_inputs',
      fields: [
        '/inputs/destination_wallet_address must not be the zero (burn) address: anything sent there is lost for good',
      ],
    });
  });
});

describe('hostile text and numbers', () => {
  it('answers 422 with a pointer for NUL, a lone surrogate or 1e999, with an Idempotency-Key', async () => {
    const create = (inputs: string) =>
      server.request('POST', '/v1/program-runs', {
        rawBody: `{"scenario_id":"wallet-delivery@v1","inputs":${inputs}}`,
        headers: { 'content-type': 'application/json', 'idempotency-key': 'strict-parsing-4' },
      });
    const walletText = JSON.stringify(wallet).slice(0, -1);
    expect(await refusal(await create(`${walletText},"customer_reference":"a\\u0000b"}`))).toEqual({
      status: 422,
      code: 'invalid_request',
      fields: [
        '/inputs/customer_reference contains U+0000 (NUL), which PostgreSQL text cannot hold',
      ],
    });
    expect(await refusal(await create(`${walletText},"customer_reference":"\\ud800"}`))).toEqual({
      status: 422,
      code: 'invalid_request',
      fields: [
        '/inputs/customer_reference contains an unpaired UTF-16 surrogate, which has no UTF-8 form',
      ],
    });
    expect(await refusal(await create(`${walletText},"n":1e999,"m":9007199254740993}`))).toEqual({
      status: 422,
      code: 'invalid_request',
      fields: [
        '/inputs/n is beyond ±9007199254740991 (2^53 − 1), where JSON numbers lose precision; send it as a string',
        '/inputs/m is beyond ±9007199254740991 (2^53 − 1), where JSON numbers lose precision; send it as a string',
      ],
    });
  });

  it('answers 422 with a pointer for NUL in a path or query id', async () => {
    expect(await refusal(await server.request('GET', '/v1/program-runs/prun_%00'))).toEqual({
      status: 422,
      code: 'invalid_path',
      fields: ['/id contains U+0000 (NUL), which PostgreSQL text cannot hold'],
    });
    expect(
      await refusal(await server.request('GET', '/v1/events?run=prun_%00&starting_after=x')),
    ).toEqual({
      status: 422,
      code: 'invalid_query',
      fields: ['/run contains U+0000 (NUL), which PostgreSQL text cannot hold'],
    });
    expect(
      await refusal(await server.request('GET', `/v1/program-runs/${'a'.repeat(256)}`)),
    ).toEqual({
      status: 422,
      code: 'invalid_path',
      fields: ['/id must be at most 255 characters'],
    });
  });
});
