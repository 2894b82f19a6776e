// Test helpers for principals: keys with their own actors and scopes, and a run driven
// through HTTP until it waits for a person (an approval) or ends.
import { base64, type DsseEnvelope, type EvidenceStatement } from '@programrun/evidence';
import type { TestServer } from './harness.js';

/** A run as the tests here read it. */
export interface RunView {
  readonly id: string;
  readonly status: string;
  readonly awaiting: {
    readonly kind: string;
    readonly step: string;
    readonly approvals: number | null;
  } | null;
}

let counter = 0;

/** A new key of `acct_one` (test) for `actor`, with `scopes` (every scope by default). */
export async function keyFor(
  server: TestServer,
  actor: string,
  scopes?: readonly string[],
  environment: 'test' | 'live' = 'test',
): Promise<{ readonly secret: string; readonly id: string }> {
  const { apiKey, secret } = await server.accounts.apiKeys.create({
    account: 'acct_one',
    environment,
    actor,
    ...(scopes ? { scopes } : {}),
  });
  return { secret, id: apiKey.id };
}

/** Creates a run of a scenario with its example inputs and a session (for evidence). */
export async function createRun(
  server: TestServer,
  scenarioId: string,
  options: { readonly key?: string; readonly session?: string } = {},
): Promise<RunView> {
  const key = options.key === undefined ? {} : { key: options.key };
  const scenario = (await (
    await server.request('GET', `/v1/scenarios/${scenarioId}`, key)
  ).json()) as { example_inputs: object };
  const response = await server.request('POST', '/v1/program-runs', {
    ...key,
    body: {
      scenario_id: scenarioId,
      inputs: scenario.example_inputs,
      ...(options.session ? { session_id: options.session } : {}),
    },
    headers: { 'idempotency-key': `actors-${(counter += 1)}-${Math.random()}` },
  });
  if (response.status !== 201) throw new Error(`create answered ${response.status}`);
  return (await response.json()) as RunView;
}

/** The run now. */
export async function readRun(server: TestServer, id: string): Promise<RunView> {
  return (await (await server.request('GET', `/v1/program-runs/${id}`)).json()) as RunView;
}

/** Moves the test clock on until the run waits for an approval or has ended. */
export async function untilApprovalOrEnd(server: TestServer, id: string): Promise<RunView> {
  for (let round = 0; round < 50; round += 1) {
    const run = await readRun(server, id);
    if (run.status !== 'waiting' || run.awaiting?.kind === 'approval') return run;
    await server.request('POST', '/v1/test_helpers/clock/advance', { body: { seconds: 600 } });
  }
  throw new Error(`run ${id} never waited for an approval or ended`);
}

/** Posts a decision with `key`; `approver` is only the body's label. */
export function decide(
  server: TestServer,
  id: string,
  key: string,
  body: { readonly step: string; readonly decision?: string; readonly approver?: string },
): Promise<Response> {
  return server.request('POST', `/v1/program-runs/${id}/approvals`, {
    key,
    body: { decision: 'approve', ...body },
  });
}

/** The evidence bundle of a run created with `session` (links a lead first). */
export async function evidenceOf(
  server: TestServer,
  id: string,
  session: string,
): Promise<EvidenceStatement['predicate']> {
  await server.request('POST', '/v1/access-requests', {
    body: { session_id: session, name: 'A', email: 'a@example.com', company: 'B', use_case: 'C' },
  });
  const envelope = (await (
    await server.request('GET', `/v1/program-runs/${id}/evidence`)
  ).json()) as DsseEnvelope;
  return (
    JSON.parse(new TextDecoder().decode(base64.decode(envelope.payload))) as EvidenceStatement
  ).predicate;
}
