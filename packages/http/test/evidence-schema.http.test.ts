import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { base64, type DsseEnvelope, type EvidenceStatement } from '@programrun/evidence';
import { startTestServer, type TestServer } from './harness.js';

type AddFormats = typeof addFormatsModule.default;
const addFormats: AddFormats =
  addFormatsModule.default ?? (addFormatsModule as unknown as AddFormats);

const schema = JSON.parse(
  readFileSync(
    new URL('../../../docs/reference/evidence-bundle.schema.json', import.meta.url),
    'utf8',
  ),
) as object;
const ajv = new Ajv2020({ allErrors: true, strict: true });
addFormats(ajv, ['date-time']);
const validate = ajv.compile(schema);

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer('handle');
});
afterAll(async () => {
  await server.close();
});

async function exportedBundle(scenarioId: string, drive: (id: string) => Promise<void>) {
  const scenario = (await (await server.request('GET', `/v1/scenarios/${scenarioId}`)).json()) as {
    example_inputs: object;
  };
  const session = `sess_schema_${scenarioId}_${Math.random()}`;
  const run = (await (
    await server.request('POST', '/v1/program-runs', {
      body: { scenario_id: scenarioId, session_id: session, inputs: scenario.example_inputs },
      headers: { 'idempotency-key': crypto.randomUUID() },
    })
  ).json()) as { id: string };
  await drive(run.id);
  await server.request('POST', '/v1/access-requests', {
    body: { session_id: session, name: 'A', email: 'a@example.com', company: 'B', use_case: 'C' },
  });
  const envelope = (await (
    await server.request('GET', `/v1/program-runs/${run.id}/evidence`)
  ).json()) as DsseEnvelope;
  return (
    JSON.parse(new TextDecoder().decode(base64.decode(envelope.payload))) as EvidenceStatement
  ).predicate;
}

/** Approves whatever waits for approval and lets partners answer, until the run is final. */
async function driveToEnd(id: string): Promise<void> {
  for (let round = 0; round < 60; round += 1) {
    const run = (await (await server.request('GET', `/v1/program-runs/${id}`)).json()) as {
      status: string;
      awaiting: { kind: string; step: string } | null;
    };
    if (run.status !== 'waiting') return;
    if (run.awaiting?.kind === 'approval') {
      await server.request('POST', `/v1/program-runs/${id}/approvals`, {
        body: { step: run.awaiting.step, decision: 'approve', approver: `approver_${round}` },
      });
    } else {
      await server.request('POST', '/v1/test_helpers/clock/advance', { body: { seconds: 3600 } });
    }
  }
}

describe('docs/reference/evidence-bundle.schema.json', () => {
  it.each(['wallet-delivery@v1', 'qr-merchant-settlement@v1', 'bridge-routing@v1'])(
    'describes a bundle of %s exactly',
    async (scenarioId) => {
      const bundle = await exportedBundle(scenarioId, driveToEnd);
      expect(validate(bundle), JSON.stringify(validate.errors, null, 2)).toBe(true);
      expect(bundle.handoffs.length).toBeGreaterThan(0);
      expect(bundle.approvals.length).toBeGreaterThan(0);
    },
  );

  it('describes a bundle naming who answered a handoff and who decided an approval', async () => {
    const bundle = await exportedBundle('wallet-delivery@v1', async (id) => {
      await server.request('POST', `/v1/program-runs/${id}/handoffs/screen_destination`, {
        body: { outcome: 'confirmed', reference: 'ca-1', data: { risk: 'low' } },
      });
      await driveToEnd(id);
    });
    expect(validate(bundle), JSON.stringify(validate.errors, null, 2)).toBe(true);
    expect(bundle.handoffs[0]).toMatchObject({
      step: 'screen_destination',
      answered_by: {
        actor: expect.any(String) as unknown,
        credential_id: expect.any(String) as unknown,
      },
    });
    expect(bundle.approvals[0]?.decisions).toEqual([
      expect.objectContaining({
        credential_id: expect.any(String) as unknown,
        label: 'approver_0',
      }),
    ]);
  });

  it('describes a bundle of a run still waiting', async () => {
    const bundle = await exportedBundle('wallet-delivery@v1', () => Promise.resolve());
    expect(validate(bundle), JSON.stringify(validate.errors, null, 2)).toBe(true);
    expect(bundle.run.status).toBe('waiting');
  });
});
