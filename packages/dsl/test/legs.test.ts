import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  compile,
  legBalances,
  legMovements,
  LegEvaluationError,
  type CompiledScenario,
  type RunEvent,
  type StepResult,
} from '../src/index.js';
import { Driver } from './driver.js';

const AT = '2026-01-01T00:00:00.000Z';
const catalogue = (name: string): CompiledScenario =>
  compile(readFileSync(new URL(`../../../scenarios/${name}`, import.meta.url), 'utf8'));

/** One partner, reviewer or operator move; a run takes the first one the machine accepts. */
type Move =
  'confirm' | 'confirm_empty' | 'reject' | 'fail' | 'approve' | 'decline' | 'expire' | 'cancel';
const MOVES: readonly Move[] = [
  'confirm',
  'confirm_empty',
  'reject',
  'fail',
  'approve',
  'decline',
  'expire',
  'cancel',
];

/** Drives a run with `moves` (confirming a handoff with its simulated data) until it ends. */
function drive(compiled: CompiledScenario, moves: readonly Move[]): StepResult {
  let result = compiled.start({
    environment: 'test',
    inputs: compiled.definition.example_inputs as never,
  });
  let approver = 0;
  for (let turn = 0; turn < 200 && result.state.awaiting; turn += 1) {
    const { step, attempt } = result.state.awaiting;
    const definition = compiled.graph.steps.get(step)?.definition;
    const simulated = definition?.kind === 'handoff' ? (definition.simulation?.data ?? {}) : {};
    const data = compiled.evaluator.fields(simulated, result.snapshot.context);
    const event = (move: Move): RunEvent => {
      switch (move) {
        case 'confirm':
        case 'confirm_empty':
        case 'reject':
        case 'fail':
          return {
            type: 'handoff.outcome',
            step,
            outcome: move === 'reject' ? 'rejected' : move === 'fail' ? 'failed' : 'confirmed',
            reference: `ref_${step}`,
            data: (move === 'confirm' && data.ok ? data.value : {}) as never,
            at: AT,
          };
        case 'approve':
        case 'decline':
          approver += 1;
          return {
            type: 'approval.decision',
            step,
            decision: move === 'approve' ? 'approve' : 'reject',
            approver: `person_${approver}`,
            at: AT,
          };
        case 'expire':
          return { type: 'timer.fired', step, attempt, at: AT };
        case 'cancel':
          return { type: 'run.cancel', reason: 'asked', at: AT };
      }
    };
    const first = moves[turn % Math.max(moves.length, 1)] ?? 'confirm';
    const order = [first, ...MOVES.filter((move) => move !== first)];
    for (const move of order) {
      const next = compiled.transition(result.snapshot, event(move));
      if (next.accepted) {
        result = next;
        break;
      }
    }
  }
  return result;
}

describe('money legs', () => {
  it('moves a leg when its step completes, with amounts as decimal strings and currencies evaluated', () => {
    const body = `stages:
  - id: payout
    title: Payout
    steps:
      - id: hold
        kind: handoff
        title: Hold
        party: bank
        action: ledger.hold
        timeout: PT5M
        compensate: release
      - id: pay
        kind: handoff
        title: Pay
        party: bank
        action: payout.execute
        timeout: PT5M
        on_reject: compensate
compensations:
  - id: release
    kind: handoff
    title: Release
    party: bank
    action: ledger.release
    timeout: PT5M
legs:
  - { id: hold_debit, step: hold, direction: debit, amount: money(inputs.amount), currency: "'EUR'" }
  - { id: pay_credit, step: pay, direction: credit, amount: 'money(handoffs.pay.data.sent)', currency: handoffs.pay.data.currency }
  - { id: release_credit, step: release, direction: credit, amount: money(inputs.amount), currency: "'EUR'" }
`;
    const paid = new Driver(body, { amount: '12.50' });
    expect(legMovements(paid.compiled, paid.result.snapshot.context)).toEqual([]);
    paid.answer('hold');
    expect(legMovements(paid.compiled, paid.result.snapshot.context)).toEqual([
      { id: 'hold_debit', step: 'hold', direction: 'debit', amount: '12.50', currency: 'EUR' },
    ]);
    paid.answer('pay', 'confirmed', { sent: '12.5', currency: 'EUR' });
    const movements = legMovements(paid.compiled, paid.result.snapshot.context);
    expect(movements.map((movement) => [movement.id, movement.amount])).toEqual([
      ['hold_debit', '12.50'],
      ['pay_credit', '12.5'],
    ]);
    expect(legBalances(movements)).toEqual([
      { currency: 'EUR', debits: '12.50', credits: '12.5', balanced: true },
    ]);

    const returned = new Driver(body, { amount: '12.50' });
    returned.answer('hold');
    returned.answer('pay', 'rejected');
    returned.answer('release');
    expect(returned.state.status).toBe('faulted');
    expect(
      legMovements(returned.compiled, returned.result.snapshot.context).map((m) => m.id),
    ).toEqual(['hold_debit', 'release_credit']);

    const broken = new Driver(body, { amount: '12.50' });
    broken.answer('hold');
    broken.answer('pay', 'confirmed', { sent: 12 });
    expect(() => legMovements(broken.compiled, broken.result.snapshot.context)).toThrow(
      LegEvaluationError,
    );
    expect(() => legMovements(broken.compiled, broken.result.snapshot.context)).toThrow(
      'leg "pay_credit": amount: ',
    );
  });

  it('sums debits and credits per currency by value', () => {
    expect(
      legBalances([
        { id: 'a', step: 's', direction: 'debit', amount: '1.10', currency: 'USD' },
        { id: 'b', step: 's', direction: 'credit', amount: '1.1', currency: 'USD' },
        { id: 'c', step: 's', direction: 'debit', amount: '2', currency: 'EUR' },
      ]),
    ).toEqual([
      { currency: 'EUR', debits: '2', credits: '0', balanced: false },
      { currency: 'USD', debits: '1.10', credits: '1.1', balanced: true },
    ]);
  });

  describe.each(['bank-payout@v1.yaml', 'wallet-delivery@v1.yaml'])('%s', (name) => {
    const compiled = catalogue(name);

    it('declares legs on known steps', () => {
      expect(compiled.definition.legs.length).toBeGreaterThanOrEqual(2);
    });

    it('balances debits and credits per currency on every finished run', () => {
      const endings = new Set<string>();
      const reasons = new Set<string>();
      const moved = new Set<string>();
      fc.assert(
        fc.property(
          fc.array(fc.constantFrom(...MOVES), { minLength: 1, maxLength: 30 }),
          (moves) => {
            const result = drive(compiled, moves);
            expect(result.state.status).not.toBe('active');
            endings.add(result.state.status);
            if (result.state.ending) reasons.add(result.state.ending.reason);
            const movements = legMovements(compiled, result.snapshot.context);
            for (const movement of movements) moved.add(movement.id);
            const balances = legBalances(movements);
            expect(balances.filter((balance) => !balance.balanced)).toEqual([]);
          },
        ),
        { numRuns: 300 },
      );
      expect([...endings].sort()).toEqual(['cancelled', 'completed', 'faulted']);
      if (name.startsWith('bank')) {
        // The hard cases: a failed release, and a payout that times out in flight.
        expect([...reasons]).toContain('compensation_failed');
        expect([...reasons]).toContain('handoff_timed_out');
        expect([...moved]).toContain('release_credit_available');
      }
    });

    it('moves money on the happy path', () => {
      const result = drive(compiled, ['confirm', 'approve']);
      expect(result.state.status).toBe('completed');
      const movements = legMovements(compiled, result.snapshot.context);
      expect(movements.length).toBeGreaterThanOrEqual(2);
      expect(legBalances(movements).every((balance) => balance.balanced)).toBe(true);
    });
  });
});
