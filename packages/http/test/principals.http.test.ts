// Principals through handler.handle: scopes per route, party-limited partner keys, the
// host's actors and scopes, authorizeApproval, and who the records name.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApprovalStepView, AuthenticatedCaller, Principal } from '../src/index.js';
import { createRun, evidenceOf, keyFor, readRun, untilApprovalOrEnd } from './actors.js';
import { createTestHandler, startTestServer, type TestServer } from './harness.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer('handle');
});
afterAll(async () => {
  await server.close();
});

const bodyOf = async (response: Response) =>
  (await response.json()) as { code?: string; detail?: string; data?: unknown };

async function recordsOf(id: string) {
  const list = (await (
    await server.request('GET', `/v1/program-runs/${id}/events?limit=1000`)
  ).json()) as { data: { type: string; step: string | null; data: Record<string, unknown> }[] };
  return list.data;
}

describe('route scopes', () => {
  it('lets a runs:read key read and refuses it a write, naming the missing scope', async () => {
    const reader = await keyFor(server, 'dashboard', ['runs:read']);
    expect((await server.request('GET', '/v1/program-runs', { key: reader.secret })).status).toBe(
      200,
    );
    const refused = await server.request('POST', '/v1/program-runs', {
      key: reader.secret,
      body: { scenario_id: 'wallet-delivery@v1', inputs: {} },
      headers: { 'idempotency-key': crypto.randomUUID() },
    });
    expect(refused.status).toBe(403);
    expect(refused.headers.get('www-authenticate')).toBe(
      'Bearer realm="programrun", error="insufficient_scope", scope="runs:write"',
    );
    const problem = await bodyOf(refused);
    expect(problem.code).toBe('insufficient_scope');
    expect(problem.detail).toContain('runs:write');
  });
});

describe('partner answers', () => {
  it("answer only their own party's handoffs, and the records and evidence name who answered", async () => {
    const session = `sess_partner_${Math.random()}`;
    const run = await createRun(server, 'wallet-delivery@v1', { session });
    const custodian = await keyFor(server, 'partner:custodian', ['handoffs:answer:custodian']);
    const analytics = await keyFor(server, 'partner:chain_analytics', [
      'handoffs:answer:chain_analytics',
    ]);
    const answer = (key: string) =>
      server.request('POST', `/v1/program-runs/${run.id}/handoffs/screen_destination`, {
        key,
        body: { outcome: 'confirmed', reference: 'ca-7', data: { risk: 'low' } },
      });
    const refused = await answer(custodian.secret);
    expect(refused.status).toBe(403);
    expect(refused.headers.get('www-authenticate')).toContain(
      'scope="handoffs:answer:chain_analytics"',
    );
    expect((await bodyOf(refused)).code).toBe('insufficient_scope');
    expect((await readRun(server, run.id)).awaiting?.step).toBe('screen_destination');

    expect((await answer(analytics.secret)).status).toBe(200);
    const confirmed = (await recordsOf(run.id)).find(
      (record) => record.type === 'program_run.handoff.confirmed',
    )!;
    expect(confirmed.data.answered_by).toEqual({
      actor: 'partner:chain_analytics',
      credential_id: analytics.id,
    });
    const handoffs = (await evidenceOf(server, run.id, session)).handoffs as {
      step: string;
      answered_by: unknown;
    }[];
    expect(handoffs.find((handoff) => handoff.step === 'screen_destination')?.answered_by).toEqual({
      actor: 'partner:chain_analytics',
      credential_id: analytics.id,
    });
    // A handoff nobody answered yet names nobody.
    expect(
      handoffs.find((handoff) => handoff.step !== 'screen_destination')?.answered_by ?? null,
    ).toBe(null);
  });

  it('in live, must carry the pik_ key of the handoff request', async () => {
    const creator = await keyFor(server, 'platform', undefined, 'live');
    const partner = await keyFor(
      server,
      'partner:chain_analytics',
      ['handoffs:answer:chain_analytics'],
      'live',
    );
    const run = await createRun(server, 'wallet-delivery@v1', { key: creator.secret });
    const path = `/v1/program-runs/${run.id}/handoffs/screen_destination`;
    const body = { outcome: 'confirmed', reference: 'ca-live-1' };
    const keyless = await server.request('POST', path, { key: partner.secret, body });
    expect(keyless.status).toBe(422);
    expect((await bodyOf(keyless)).code).toBe('handoff_key_required');

    const events = (await (
      await server.request('GET', `/v1/program-runs/${run.id}/events`, { key: creator.secret })
    ).json()) as { data: { type: string; data: { idempotency_key?: string } }[] };
    const requested = events.data.find((event) => event.type === 'program_run.handoff.requested')!;
    const keyed = await server.request('POST', path, {
      key: partner.secret,
      body: { ...body, idempotency_key: requested.data.idempotency_key },
    });
    expect(keyed.status).toBe(200);
  });
});

describe("the host's principals", () => {
  interface Seen {
    readonly principal: Principal;
    readonly step: ApprovalStepView;
    readonly runId: string;
  }

  async function hostHandler(callers: Record<string, AuthenticatedCaller>, seen: Seen[]) {
    const { handler } = await createTestHandler({
      authenticate: (request) => callers[request.headers.get('x-session') ?? ''] ?? null,
      authorizeApproval: (principal, run, step) => {
        seen.push({ principal, step, runId: run.id });
        // The host's directory: only ops people approve for treasury_ops.
        return principal.actor.startsWith('ops:') && step.approvers.includes('treasury_ops');
      },
    });
    return (session: string, method: string, path: string, body?: unknown) =>
      handler.handle(
        new Request(`http://programrun.test${path}`, {
          method,
          headers: {
            'x-session': session,
            'content-type': 'application/json',
            ...(method === 'POST' && path === '/v1/program-runs'
              ? { 'idempotency-key': crypto.randomUUID() }
              : {}),
          },
          ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        }),
      );
  }

  it('decide with their own actors, authorized by authorizeApproval, and the records name them', async () => {
    const seen: Seen[] = [];
    const scope = { account: 'acct_host', environment: 'test' } as const;
    const call = await hostHandler(
      {
        // Without actor and scopes: the credential id acts, with every scope.
        platform: { ...scope, credentialId: 'svc-platform' },
        alice: {
          ...scope,
          credentialId: 'sess-a1',
          actor: 'ops:alice',
          scopes: ['approvals:decide'],
        },
        mallory: {
          ...scope,
          credentialId: 'sess-m1',
          actor: 'eve:mallory',
          scopes: ['approvals:decide'],
        },
        broken: { ...scope, credentialId: 'sess-x', scopes: ['runs:everything'] },
      },
      seen,
    );
    const created = await call('platform', 'POST', '/v1/program-runs', {
      scenario_id: 'wallet-delivery@v1',
      inputs: {
        amount: '125.00',
        destination_wallet_address: '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
        network: 'base',
      },
    });
    expect(created.status).toBe(201);
    const { id } = (await created.json()) as { id: string };
    await call('platform', 'POST', '/v1/test_helpers/clock/advance', { seconds: 60 });
    const decision = { step: 'release_approval', decision: 'approve', approver: 'Alice' };

    const refused = await call('mallory', 'POST', `/v1/program-runs/${id}/approvals`, decision);
    expect(refused.status).toBe(403);
    expect((await bodyOf(refused)).code).toBe('approver_not_authorized');
    expect((await call('broken', 'GET', '/v1/program-runs')).status).toBe(500);

    expect((await call('alice', 'POST', `/v1/program-runs/${id}/approvals`, decision)).status).toBe(
      200,
    );
    expect(seen.map((item) => [item.principal.actor, item.runId, item.step])).toEqual([
      [
        'eve:mallory',
        id,
        expect.objectContaining({ id: 'release_approval', approvers: ['treasury_ops'] }),
      ],
      [
        'ops:alice',
        id,
        expect.objectContaining({ id: 'release_approval', kind: 'approval', quorum: 1 }),
      ],
    ]);
    const events = (await (
      await call('platform', 'GET', `/v1/program-runs/${id}/events`)
    ).json()) as {
      data: { type: string; data: { decisions?: unknown[] } }[];
    };
    const granted = events.data.find((event) => event.type === 'program_run.approval.granted')!;
    expect(granted.data.decisions).toEqual([
      expect.objectContaining({ approver: 'ops:alice', credential_id: 'sess-a1', label: 'Alice' }),
    ]);
  });
});

describe('approvals by scope', () => {
  it('decide with approvals:decide:<party> only the steps that party approves', async () => {
    const run = await createRun(server, 'wallet-delivery@v1');
    await untilApprovalOrEnd(server, run.id);
    const compliance = await keyFor(server, 'ops:compliance', ['approvals:decide:compliance_desk']);
    const treasury = await keyFor(server, 'ops:treasury', ['approvals:decide:treasury_ops']);
    const decide = (key: string) =>
      server.request('POST', `/v1/program-runs/${run.id}/approvals`, {
        key,
        body: { step: 'release_approval', decision: 'approve' },
      });
    const refused = await decide(compliance.secret);
    expect(refused.status).toBe(403);
    expect((await bodyOf(refused)).code).toBe('approver_not_authorized');
    expect((await decide(treasury.secret)).status).toBe(200);
  });
});
