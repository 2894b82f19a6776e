// The fetch example, bundled as a Worker script, runs under edge-runtime: a V8 context with
// the web platform (fetch, Request, crypto.subtle, streams) and no Node built-ins, no
// `process`, no `require`. A run is created, approved and completed through it.
import { fileURLToPath } from 'node:url';
import { EdgeRuntime } from 'edge-runtime';
import { beforeAll, describe, expect, it } from 'vitest';
import { edgeBundle } from '../src/edge-bundle.js';

const here = fileURLToPath(new URL('.', import.meta.url));
const testKey = 'pr_test_4eC39HqLyjWDarjtT1zdp7dc0000000136APaf';

let runtime: EdgeRuntime;

async function call(method: string, path: string, body?: unknown): Promise<Response> {
  return runtime.dispatchFetch(`https://edge.example${path}`, {
    method,
    headers: {
      authorization: `Bearer ${testKey}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(method === 'POST' ? { 'idempotency-key': crypto.randomUUID() } : {}),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
}

describe('the fetch example under edge-runtime (no Node built-ins)', () => {
  beforeAll(async () => {
    const script = await edgeBundle('fixtures/edge-worker.ts', here, testKey);
    // edge-runtime wraps Object and Array in proxies so that `instanceof` accepts objects
    // from its host realm; that breaks `({}).constructor === Object`, which holds on every
    // real runtime and which the CEL library relies on. Put the intrinsics back first.
    const intrinsics = 'globalThis.Object = ({}).constructor; globalThis.Array = [].constructor;';
    // Ajv compiles JSON Schemas into functions, so code generation stays on here. Cloudflare
    // Workers forbid it (see the embedding guide); Deno Deploy, Bun and Vercel Edge allow it.
    runtime = new EdgeRuntime({
      initialCode: `${intrinsics}\n${script}`,
      codeGeneration: { strings: true, wasm: false },
    });
  });

  it('has no Node globals inside', () => {
    expect(runtime.evaluate('[typeof process, typeof require, typeof Buffer].join()')).toBe(
      'undefined,undefined,undefined',
    );
  });

  it('lists the bundled scenario', async () => {
    const response = await call('GET', '/v1/scenarios');
    expect(response.status).toBe(200);
    const list = (await response.json()) as { data: { id: string }[] };
    expect(list.data.map((scenario) => scenario.id)).toEqual(['wallet-delivery@v1']);
  });

  it('refuses a request without a key with problem+json', async () => {
    const response = await runtime.dispatchFetch('https://edge.example/v1/program-runs');
    expect(response.status).toBe(401);
    expect(response.headers.get('content-type')).toBe('application/problem+json');
  });

  it('creates a run, takes an approval and completes it on the test clock', async () => {
    const created = await call('POST', '/v1/program-runs', {
      scenario_id: 'wallet-delivery@v1',
      inputs: {
        amount: '125.00',
        destination_wallet_address: '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
        network: 'base',
        customer_reference: 'order-2291',
      },
    });
    expect(created.status).toBe(201);
    const run = (await created.json()) as { id: string; status: string };
    expect(run.status).toBe('waiting');

    expect((await call('POST', '/v1/test_helpers/clock/advance', { seconds: 60 })).status).toBe(
      200,
    );
    const approved = await call('POST', `/v1/program-runs/${run.id}/approvals`, {
      step: 'release_approval',
      decision: 'approve',
      approver: 'ops:alice',
    });
    expect(approved.status).toBe(200);
    expect((await call('POST', '/v1/test_helpers/clock/advance', { seconds: 60 })).status).toBe(
      200,
    );

    const finished = await call('GET', `/v1/program-runs/${run.id}`);
    expect(await finished.json()).toMatchObject({ status: 'completed' });
  });

  it('registers a webhook endpoint with a fresh whsec_ secret (web crypto randomness)', async () => {
    const response = await call('POST', '/v1/webhook-endpoints', {
      url: 'https://hooks.example/programrun',
    });
    expect(response.status).toBe(201);
    const endpoint = (await response.json()) as { secret: string };
    expect(endpoint.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
  });
});
