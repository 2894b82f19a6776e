// Property: whoever calls, with whatever scopes and names, no decision is applied without
// the scope, four eyes never pass with one actor, and the evidence names every actor.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { createRun, evidenceOf, keyFor, untilApprovalOrEnd } from './actors.js';
import { startTestServer, type TestServer } from './harness.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer('handle');
});
afterAll(async () => {
  await server.close();
});

const ACTORS = ['ops:ana', 'ops:ben', 'ops:cy', 'ops:dee'];
const DECIDE_SCOPES = [
  'approvals:decide',
  'approvals:decide:payments_ops',
  'approvals:decide:finance_control',
  'approvals:decide:compliance_desk',
];
// bank-payout@v1's approval steps and their approver parties.
const APPROVERS: Record<string, readonly string[]> = {
  submit_instruction: ['payments_ops'],
  release_approval: ['payments_ops', 'finance_control'],
};

const caller = fc.record({
  actor: fc.constantFrom(...ACTORS),
  scopes: fc.subarray([...DECIDE_SCOPES, 'runs:read'], { minLength: 1 }),
});
// Labels include other actors' names: a label must never count as anyone.
const decision = fc.record({
  caller: fc.nat({ max: 5 }),
  label: fc.option(fc.constantFrom('nobody:1', 'nobody:2', 'ops:ana', 'ops:ben', 'Alice'), {
    nil: undefined,
  }),
  reject: fc.integer({ min: 0, max: 9 }).map((draw) => draw === 0),
});

interface Decision {
  readonly approver: string;
  readonly decision: string;
  readonly credential_id?: string;
  readonly label?: string;
}
interface ApprovalView {
  readonly step: string;
  readonly outcome: string;
  readonly decisions: readonly Decision[];
}

const mayDecide = (scopes: readonly string[], step: string) =>
  scopes.some(
    (scope) =>
      scope === 'approvals:decide' ||
      APPROVERS[step]!.some((party) => scope === `approvals:decide:${party}`),
  );

async function recordCount(id: string): Promise<number> {
  const list = (await (
    await server.request('GET', `/v1/program-runs/${id}/events?limit=1000`)
  ).json()) as { data: unknown[] };
  return list.data.length;
}

describe('principals deciding bank-payout@v1', () => {
  it('property: scopes gate every decision, four eyes need distinct actors, evidence names each', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(caller, { minLength: 6, maxLength: 6 }),
        fc.array(decision, { minLength: 3, maxLength: 10 }),
        async (callers, decisions) => {
          const keys = await Promise.all(
            callers.map(async (spec) => ({
              ...spec,
              ...(await keyFor(server, spec.actor, spec.scopes)),
            })),
          );
          const actorOf = new Map(keys.map((key) => [key.id, key.actor]));
          const session = `sess_property_${Math.random()}`;
          const { id } = await createRun(server, 'bank-payout@v1', { session });
          const applied: { step: string; actor: string }[] = [];
          for (const planned of decisions) {
            const run = await untilApprovalOrEnd(server, id);
            if (run.status !== 'waiting') break;
            const step = run.awaiting!.step;
            const key = keys[planned.caller]!;
            const before = await recordCount(id);
            const response = await server.request('POST', `/v1/program-runs/${id}/approvals`, {
              key: key.secret,
              body: {
                step,
                decision: planned.reject ? 'reject' : 'approve',
                ...(planned.label === undefined ? {} : { approver: planned.label }),
              },
            });
            const { code } = (await response.json()) as { code?: string };
            if (!key.scopes.some((scope) => scope.startsWith('approvals:decide'))) {
              expect({ status: response.status, code }).toEqual({
                status: 403,
                code: 'insufficient_scope',
              });
            } else if (!mayDecide(key.scopes, step)) {
              expect({ status: response.status, code }).toEqual({
                status: 403,
                code: 'approver_not_authorized',
              });
            } else {
              expect([200, 409]).toContain(response.status);
            }
            // Nothing is written for a refused decision.
            if (response.status !== 200) expect(await recordCount(id)).toBe(before);
            else applied.push({ step, actor: key.actor });
          }

          const bundle = await evidenceOf(server, id, session);
          const approvals = bundle.approvals as unknown as ApprovalView[];
          // Every decision names the actor of the credential it came with, never a label.
          for (const approval of approvals) {
            for (const item of approval.decisions) {
              expect(item.credential_id).toBeDefined();
              expect(item.approver).toBe(actorOf.get(item.credential_id!));
            }
          }
          // Every actor whose decision was accepted is in the evidence of that step.
          for (const { step, actor } of applied) {
            const named = approvals
              .filter((approval) => approval.step === step)
              .flatMap((approval) => approval.decisions.map((item) => item.approver));
            expect(named).toContain(actor);
          }
          // Four eyes: a granted release has two distinct actors, neither of them the maker.
          const makers = approvals
            .filter((approval) => approval.step === 'submit_instruction')
            .flatMap((approval) => approval.decisions)
            .filter((item) => item.decision === 'approve')
            .map((item) => item.approver);
          for (const release of approvals.filter(
            (approval) => approval.step === 'release_approval' && approval.outcome === 'granted',
          )) {
            const checkers = new Set(
              release.decisions
                .filter((item) => item.decision === 'approve')
                .map((item) => item.approver),
            );
            expect(checkers.size).toBeGreaterThanOrEqual(2);
            for (const maker of makers) expect(checkers.has(maker)).toBe(false);
          }
        },
      ),
      { numRuns: 40 },
    );
  }, 120_000);
});
