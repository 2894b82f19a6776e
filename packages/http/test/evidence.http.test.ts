import { createHash, createPublicKey, verify } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  verifyEvidence,
  type DsseEnvelope,
  type EvidenceStatement,
  type Jwks,
} from '@programrun/evidence';
import { evidenceKeys, OTHER_TEST_KEY, startTestServer, type TestServer } from './harness.js';

const inputs = {
  amount: '125.00',
  destination_wallet_address: '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
  network: 'base',
};
let server: TestServer;
let counter = 0;

async function createRun(sessionId: string | null) {
  const response = await server.request('POST', '/v1/program-runs', {
    body: {
      scenario_id: 'wallet-delivery@v1',
      inputs,
      ...(sessionId ? { session_id: sessionId } : {}),
    },
    headers: { 'idempotency-key': `evidence-${(counter += 1)}` },
  });
  return (await response.json()) as {
    id: string;
    evidence: { exportable: boolean; chain_head: string };
  };
}

const lead = (sessionId: string) => ({
  session_id: sessionId,
  name: 'Ana Lima',
  email: 'ana@example.com',
  company: 'Example Pay',
  use_case: 'Cross-border wallet payouts',
});

/** Canonical JSON for the record shapes programrun writes (no floats): sorted keys, JSON strings. */
function independentCanonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(independentCanonical).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.keys(value)
      .sort()
      .map(
        (key) =>
          `${JSON.stringify(key)}:${independentCanonical((value as Record<string, unknown>)[key])}`,
      );
    return `{${entries.join(',')}}`;
  }
  return JSON.stringify(value);
}

// The HTTP semantics, once, through handler.handle; adapter-conformance.http.test.ts
// checks that every adapter carries them over a socket.
describe('through handler.handle', () => {
  beforeAll(async () => {
    server = await startTestServer('handle');
  });
  afterAll(async () => {
    await server.close();
  });

  describe('evidence export', () => {
    it('is refused without a lead, and explains how to link one', async () => {
      const run = await createRun('sess_refused');
      expect(run.evidence.exportable).toBe(false);
      const response = await server.request('GET', `/v1/program-runs/${run.id}/evidence`);
      expect(response.status).toBe(403);
      const problem = (await response.json()) as { code: string; detail: string };
      expect(problem.code).toBe('lead_required');
      expect(problem.detail).toContain('POST /v1/access-requests');
      expect(problem.detail).toContain('sess_refused');
    });

    it('tells runs without a session why they can never export', async () => {
      const run = await createRun(null);
      const problem = (await (
        await server.request('GET', `/v1/program-runs/${run.id}/evidence`)
      ).json()) as { code: string; detail: string };
      expect(problem).toMatchObject({ code: 'lead_required' });
      expect(problem.detail).toContain('without a session_id');
    });

    it('creates access requests once per session and validates them', async () => {
      const first = await server.request('POST', '/v1/access-requests', {
        body: lead('sess_lead'),
      });
      expect(first.status).toBe(201);
      const created = (await first.json()) as { id: string; object: string };
      expect(created).toMatchObject({ object: 'access_request', session_id: 'sess_lead' });
      expect(created.id).toMatch(/^lead_/);
      const again = await server.request('POST', '/v1/access-requests', {
        body: { ...lead('sess_lead'), name: 'Someone Else' },
      });
      expect(again.status).toBe(200);
      expect((await again.json()) as { id: string; name: string }).toMatchObject({
        id: created.id,
        name: 'Ana Lima',
      });
      const invalid = await server.request('POST', '/v1/access-requests', {
        body: { ...lead('sess_x'), email: 'not-an-email' },
      });
      expect(invalid.status).toBe(422);
      expect(((await invalid.json()) as { errors: { pointer: string }[] }).errors[0]!.pointer).toBe(
        '/email',
      );
    });

    it('is allowed after a lead is linked, and verifies with the library and with plain node:crypto', async () => {
      const run = await createRun('sess_allowed');
      await server.request('POST', '/v1/test_helpers/clock/advance', { body: { seconds: 30 } });
      await server.request('POST', `/v1/program-runs/${run.id}/approvals`, {
        body: { step: 'release_approval', decision: 'approve', approver: 'ops:ana' },
      });
      await server.request('POST', '/v1/test_helpers/clock/advance', { body: { seconds: 60 } });
      await server.request('POST', '/v1/access-requests', { body: lead('sess_allowed') });
      const record = (await (await server.request('GET', `/v1/program-runs/${run.id}`)).json()) as {
        status: string;
        evidence: { exportable: boolean; chain_head: string };
      };
      expect(record).toMatchObject({ status: 'completed', evidence: { exportable: true } });

      const response = await server.request('GET', `/v1/program-runs/${run.id}/evidence`);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe(
        'application/vnd.programrun.evidence.v1+json',
      );
      const text = await response.text();
      const keysResponse = await server.request('GET', '/v1/evidence-keys', { key: null });
      expect(keysResponse.status).toBe(200);
      expect(keysResponse.headers.get('content-type')).toBe('application/jwk-set+json');
      const jwks = (await keysResponse.json()) as Jwks;
      expect(jwks.keys.map((key) => key.kid)).toEqual([evidenceKeys.signer.kid]);

      // 1. The library.
      const result = verifyEvidence(text, jwks);
      expect(result.failure).toBeNull();
      expect(result.ok).toBe(true);
      expect(result.bundle?.run).toMatchObject({
        id: run.id,
        status: 'completed',
        session_id: 'sess_allowed',
      });

      // 2. Independently: DSSE PAE and Ed25519 with node:crypto, record hashes with sha-256.
      const envelope = JSON.parse(text) as DsseEnvelope;
      const payload = Buffer.from(envelope.payload, 'base64');
      const pae = Buffer.concat([
        Buffer.from(
          `DSSEv1 ${Buffer.byteLength(envelope.payloadType)} ${envelope.payloadType} ${payload.length} `,
        ),
        payload,
      ]);
      const key = createPublicKey({ key: { ...jwks.keys[0]! }, format: 'jwk' });
      expect(verify(null, pae, key, Buffer.from(envelope.signatures[0]!.sig, 'base64'))).toBe(true);
      const statement = JSON.parse(payload.toString('utf8')) as EvidenceStatement;
      expect(statement.predicate.signing.kid).toBe(envelope.signatures[0]!.keyid);
      let prev: string | null = null;
      for (const [index, entry] of statement.predicate.lifecycle.records.entries()) {
        const { hash, ...body } = entry;
        expect(entry.sequence).toBe(index + 1);
        expect(entry.prev).toBe(prev);
        expect(hash).toBe(
          `sha256:${createHash('sha256').update(independentCanonical(body)).digest('hex')}`,
        );
        prev = hash;
      }
      expect(prev).toBe(record.evidence.chain_head);
      expect(statement.predicate.lifecycle.records.at(-1)!.type).toBe(
        'program_run.evidence.sealed',
      );
      expect(statement.subject[0].digest.sha256).toBe(prev!.slice(7));
    });

    it('exports at any status, stating it', async () => {
      const run = await createRun('sess_waiting');
      await server.request('POST', '/v1/access-requests', { body: lead('sess_waiting') });
      const text = await (
        await server.request('GET', `/v1/program-runs/${run.id}/evidence`)
      ).text();
      const result = verifyEvidence(text, evidenceKeys.publicJwks());
      expect(result.ok).toBe(true);
      expect(result.bundle?.run.status).toBe('waiting');
      expect(result.bundle?.handoffs[0]).toMatchObject({
        step: 'screen_destination',
        outcome: 'pending',
      });
    });

    it('keeps evidence of other accounts out of reach', async () => {
      const run = await createRun('sess_private');
      await server.request('POST', '/v1/access-requests', { body: lead('sess_private') });
      const other = await server.request('GET', `/v1/program-runs/${run.id}/evidence`, {
        key: OTHER_TEST_KEY,
      });
      expect(other.status).toBe(404);
    });
  });
});
