import { describe, expect, it } from 'vitest';
import type { CompiledScenario } from '@programrun/dsl';
import { createKeySet, generateEd25519Jwk, privateJwkFromSeed } from '@programrun/evidence';
import {
  evidenceViolations,
  happyPathPlan,
  invariantViolations,
  localLegMovements,
  loadCompiledScenario,
  moneyConservationViolations,
  runTrace,
  stuckStateViolations,
  terminationBound,
  traceViolations,
  type MoneyLeg,
  type Trace,
} from '../src/index.js';

const scenario = (id: string) =>
  loadCompiledScenario(new URL(`../../../scenarios/${id}.yaml`, import.meta.url));
const wallet = await scenario('wallet-delivery@v1');
const qr = await scenario('qr-merchant-settlement@v1');
const happy = await runTrace(wallet, wallet.definition.example_inputs, happyPathPlan(), 'happy');
// Screening rejected: the run faults before any transfer.
const rejected = await runTrace(
  wallet,
  wallet.definition.example_inputs,
  { partnersAnswer: true, actions: [{ kind: 'answer', outcome: 'rejected' }], drain: 'expire' },
  'rejected',
);

/** The scenario with other declarations (invariants, legs) over the same graph. */
const declaring = (compiled: CompiledScenario, extra: Record<string, unknown>) =>
  ({ ...compiled, definition: { ...compiled.definition, ...extra } }) as CompiledScenario;

describe('invariantViolations', () => {
  it('reports a then-step that starts before its before-step completed', async () => {
    const invariant = qr.definition.invariants[0] as unknown as { id: string; before: string[] };
    const trace = await runTrace(qr, qr.definition.example_inputs, happyPathPlan(), 'tamper');
    expect(traceViolations(qr, trace)).toEqual([]);
    // Drop every record that completes the first before-step: the then-step now starts too early.
    const records = trace.records.filter(
      (record) =>
        !(
          record.step === invariant.before[0] &&
          !record.type.endsWith('requested') &&
          !record.type.endsWith('started')
        ),
    );
    const violations = traceViolations(qr, { ...trace, records });
    expect(violations.some((violation) => violation.startsWith(`invariant ${invariant.id}`))).toBe(
      true,
    );
    expect(violations.some((violation) => violation.startsWith('hash chain'))).toBe(true);
  });

  it('counts the people who granted an approval, and who of them approved an earlier step', async () => {
    const bank = await scenario('bank-payout@v1');
    const trace = await runTrace(bank, bank.definition.example_inputs, happyPathPlan(), 'four');
    expect(invariantViolations(bank, trace.records, trace.run.status)).toEqual([]);
    const needing = (by_at_least: number) =>
      declaring(bank, {
        invariants: [
          {
            id: 'checkers',
            description: 'x',
            approved: ['release_approval'],
            by_at_least,
            maker_checker: true,
          },
        ],
      });
    expect(invariantViolations(needing(3), trace.records, trace.run.status)).toEqual([
      expect.stringMatching(
        /^invariant checkers: release_approval granted at #\d+ by 2 approver\(s\), fewer than 3$/,
      ),
    ]);
    // The maker's name in the release's decisions: a checker who approved an earlier step.
    const maker = trace.records.find(
      (record) =>
        record.type === 'program_run.approval.granted' && record.step === 'submit_instruction',
    )!;
    const makerName = (maker.data as { decisions: { approver: string }[] }).decisions[0]!.approver;
    const records = trace.records.map((record) => {
      if (record.type !== 'program_run.approval.granted' || record.step !== 'release_approval')
        return record;
      const { decisions } = record.data as { decisions: { approver: string }[] };
      const tampered = [{ ...decisions[0]!, approver: makerName }, ...decisions.slice(1)];
      return { ...record, data: { ...record.data, decisions: tampered } };
    });
    expect(invariantViolations(needing(2), records, trace.run.status)).toEqual([
      expect.stringMatching(
        new RegExp(
          `^invariant checkers: release_approval granted at #\\d+ with ${makerName}, who approved an earlier step$`,
        ),
      ),
    ]);
  });

  it('reports two steps of an exclusion that both completed', () => {
    const compiled = declaring(wallet, {
      invariants: [
        {
          id: 'one_or_other',
          description: 'x',
          never_together: ['amount_gate', 'record_delivery'],
        },
      ],
    });
    expect(invariantViolations(compiled, happy.records, happy.run.status)).toEqual([
      expect.stringMatching(
        /^invariant one_or_other: completed amount_gate \(#\d+\) and record_delivery \(#\d+\), which must never happen together$/,
      ),
    ]);
    expect(invariantViolations(compiled, rejected.records, rejected.run.status)).toEqual([]);
  });

  it('holds a completed run to a response, and lets runs that fault go', () => {
    const respond = (eventually: string[]) =>
      declaring(wallet, {
        invariants: [{ id: 'delivered', description: 'x', after: ['amount_gate'], eventually }],
      });
    expect(invariantViolations(respond(['record_delivery']), happy.records, 'completed')).toEqual(
      [],
    );
    expect(invariantViolations(respond(['record_delivery']), rejected.records, 'faulted')).toEqual(
      [],
    );
    // The eventually step must complete after the after step, not before it.
    const backwards = declaring(wallet, {
      invariants: [
        { id: 'late', description: 'x', after: ['record_delivery'], eventually: ['amount_gate'] },
      ],
    });
    expect(invariantViolations(backwards, happy.records, 'completed')).toEqual([
      expect.stringMatching(
        /^invariant late: record_delivery completed at #\d+ but the run completed without amount_gate completing after it$/,
      ),
    ]);
  });
});

describe('moneyConservationViolations', () => {
  const leg = (id: string, direction: 'debit' | 'credit', amount = 'money(inputs.amount)') =>
    ({ id, step: 'transfer_to_wallet', direction, amount, currency: "'PRDEMO'" }) as MoneyLeg;
  const withLegs = (...legs: MoneyLeg[]) =>
    runTrace(
      declaring(wallet, { legs }),
      wallet.definition.example_inputs,
      happyPathPlan(),
      'legs',
    );

  it('holds when debits equal credits per currency', async () => {
    const compiled = declaring(wallet, { legs: [leg('out', 'debit'), leg('in', 'credit')] });
    const trace = await withLegs(leg('out', 'debit'), leg('in', 'credit'));
    expect(localLegMovements(compiled, trace).moved.map((moved) => moved.amount)).toEqual([
      '125.00',
      '125.00',
    ]);
    expect(moneyConservationViolations(compiled, trace)).toEqual([]);
  });

  it('reports a currency whose debits and credits differ', async () => {
    const legs = [
      leg('out', 'debit'),
      leg('fee', 'credit', 'money(inputs.amount) - money("1.00")'),
    ];
    const trace = await withLegs(...legs);
    expect(moneyConservationViolations(declaring(wallet, { legs }), trace)).toEqual([
      expect.stringMatching(
        /^PRDEMO: debits 125\.00 ≠ credits 124\.00 on a completed run \(moved: out debit 125\.00 at #\d+, fee credit 124\.00 at #\d+\)$/,
      ),
    ]);
  });

  it('moves nothing when the step never completes, and reports legs it cannot value', async () => {
    const legs = [leg('out', 'debit')];
    expect(moneyConservationViolations(declaring(wallet, { legs }), rejected)).toEqual([]);
    const broken = [leg('out', 'debit', 'money(inputs.missing_field)')];
    const trace = await withLegs(...broken);
    expect(moneyConservationViolations(declaring(wallet, { legs: broken }), trace)).toEqual([
      expect.stringMatching(/^leg out at #\d+: amount: /),
    ]);
  });
});

describe('stuckStateViolations', () => {
  it('accepts waits with a deadline and a pending timer', () => {
    expect(stuckStateViolations(happy)).toEqual([]);
  });

  it('reports a wait without a deadline, a rest without a wait, and an expiry that moved nothing', () => {
    const [created, next] = happy.timeline;
    const stuck: Trace = {
      ...happy,
      timeline: [
        { ...created!, awaiting: { ...created!.awaiting!, deadline: null } },
        { ...next!, status: 'running', awaiting: null },
        { ...next!, action: 'expire deadline (+5s)', outcome: 'clock', records: [] },
      ],
    };
    const violations = stuckStateViolations(stuck);
    expect(violations[0]).toMatch(/waits on handoff screen_destination without a deadline$/);
    expect(violations[1]).toMatch(/the run is running without waiting on anything$/);
    expect(violations[2]).toMatch(/letting the deadline of \w+ lapse changed nothing$/);
  });
});

describe('evidenceViolations', () => {
  const keys = createKeySet([
    { key: privateJwkFromSeed(new Uint8Array(32).fill(9)), status: 'active' },
  ]);

  it('verifies the exported DSSE bundle against the keys', async () => {
    const trace = await runTrace(wallet, wallet.definition.example_inputs, happyPathPlan(), 'e', {
      evidenceKeys: keys,
    });
    expect(trace.evidence).not.toBeNull();
    expect(evidenceViolations(trace, keys.publicJwks())).toEqual([]);
    const other = createKeySet([{ key: generateEd25519Jwk(), status: 'active' }]);
    expect(evidenceViolations(trace, other.publicJwks())[0]).toMatch(/^evidence bundle: key: /);
    const forged = { ...trace.evidence!, payload: `${trace.evidence!.payload.slice(0, -4)}AAAA` };
    expect(evidenceViolations({ ...trace, evidence: forged }, keys.publicJwks())).toHaveLength(1);
  });
});

it('bounds the drain by steps and attempts', () => {
  expect(terminationBound(wallet)).toBe(2 * wallet.graph.steps.size + 10);
  expect(terminationBound(qr)).toBe(2 * qr.graph.steps.size * 3 + 10);
});
