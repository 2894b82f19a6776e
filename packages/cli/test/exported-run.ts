import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { compile } from '@programrun/dsl';
import { loadScenarioFile } from '@programrun/dsl/node';
import {
  createAccounts,
  createEngine,
  createMemoryStore,
  createVirtualClock,
} from '@programrun/engine';
import { createKeySet, generateEd25519Jwk } from '@programrun/evidence';
import { createHandler } from '@programrun/http';
import { createNodeListener } from '@programrun/http/node';

/**
 * Runs wallet-delivery@v1 to completion over real HTTP on loopback and exports its
 * evidence: the envelope text and the JWKS text, as a client would save them.
 */
export async function exportCompletedRun(): Promise<{
  envelope: string;
  jwks: string;
  jwksUrl: string;
  close: () => Promise<void>;
}> {
  const loaded = await loadScenarioFile(
    fileURLToPath(new URL('../../../scenarios/wallet-delivery@v1.yaml', import.meta.url)),
  );
  if (!loaded.ok) throw new Error('scenario does not load');
  const compiled = compile(loaded.scenario);
  const store = createMemoryStore();
  const engine = createEngine({
    store,
    scenarios: [compiled],
    testClock: createVirtualClock(),
    evidence: { keys: createKeySet([{ key: generateEd25519Jwk(), status: 'active' }]) },
  });
  const accounts = createAccounts({ store });
  const { secret: KEY } = await accounts.apiKeys.create({
    account: 'acct_cli',
    environment: 'test',
  });
  const handler = createHandler({ engine, accounts });
  const server = createServer(createNodeListener(handler));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const call = (method: string, path: string, body?: unknown) =>
    fetch(`${base}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${KEY}`,
        'content-type': 'application/json',
        'idempotency-key': crypto.randomUUID(),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
  const run = (await (
    await call('POST', '/v1/program-runs', {
      scenario_id: compiled.id,
      session_id: 'sess_cli',
      inputs: compiled.definition.example_inputs,
    })
  ).json()) as { id: string };
  await call('POST', '/v1/test_helpers/clock/advance', { seconds: 30 });
  await call('POST', `/v1/program-runs/${run.id}/approvals`, {
    step: 'release_approval',
    decision: 'approve',
    approver: 'ops:cli',
  });
  await call('POST', '/v1/test_helpers/clock/advance', { seconds: 60 });
  await call('POST', '/v1/access-requests', {
    session_id: 'sess_cli',
    name: 'Ana',
    email: 'ana@example.com',
    company: 'Example',
    use_case: 'Audit',
  });
  const envelope = await (await call('GET', `/v1/program-runs/${run.id}/evidence`)).text();
  const jwks = await (await call('GET', '/v1/evidence-keys')).text();
  return {
    envelope,
    jwks,
    jwksUrl: `${base}/v1/evidence-keys`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
