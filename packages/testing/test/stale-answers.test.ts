import { describe, expect, it } from 'vitest';
import {
  fc,
  inputsArbitrary,
  loadCompiledScenario,
  runTrace,
  signalPlanArbitrary,
  staleAnswerViolations,
  type PlanAction,
  type SignalPlan,
} from '../src/index.js';

const scenario = (id: string) =>
  loadCompiledScenario(new URL(`../../../scenarios/${id}.yaml`, import.meta.url));
const qr = await scenario('qr-merchant-settlement@v1');
const wallet = await scenario('wallet-delivery@v1');
const bankPayout = await scenario('bank-payout@v1');

const plan = (partnersAnswer: boolean, ...actions: PlanAction[]): SignalPlan => ({
  partnersAnswer,
  actions,
  drain: 'expire',
});

describe('late and out-of-order partner answers', () => {
  it('refuses an answer to an earlier attempt, to a handoff left behind and to one never asked', async () => {
    // The payer lets two quotes lapse: lock_fx_quote is on its third attempt.
    const steps: PlanAction[] = [
      { kind: 'next' },
      { kind: 'next' },
      { kind: 'expire' },
      { kind: 'next' },
    ];
    const stale: PlanAction[] = [
      { kind: 'out_of_order', variant: 'old_attempt', outcome: 'confirmed' },
      { kind: 'late', outcome: 'confirmed' },
      { kind: 'out_of_order', variant: 'other_step', outcome: 'failed' },
    ];
    const trace = await runTrace(
      qr,
      qr.definition.example_inputs,
      plan(true, ...steps, ...stale),
      'stale',
    );
    expect(trace.log.slice(4)).toEqual([
      'out_of_order confirmed lock_fx_quote: refused handoff_key_mismatch',
      'late confirmed arm_scheme_call: refused step_not_awaiting',
      'out_of_order failed debit_payer: refused step_not_awaiting',
    ]);
    expect(trace.timeline.slice(5, 8).map((entry) => entry.action)).toEqual([
      'out-of-order answer with an old key for lock_fx_quote: confirmed (key of lock_fx_quote attempt 2)',
      'late answer arm_scheme_call: confirmed (key of arm_scheme_call attempt 1)',
      'out-of-order answer for another step debit_payer: failed',
    ]);
    expect(staleAnswerViolations(trace)).toEqual([]);
    // The run is exactly the run without them.
    const clean = await runTrace(qr, qr.definition.example_inputs, plan(true, ...steps), 'stale');
    expect(trace.records).toEqual(clean.records);
  });

  it('refuses an answer that arrives after the handoff timed out', async () => {
    const trace = await runTrace(
      wallet,
      wallet.definition.example_inputs,
      plan(false, { kind: 'expire' }, { kind: 'late', outcome: 'confirmed' }),
      'late',
    );
    expect(trace.log).toEqual([
      'expire',
      'late confirmed screen_destination: refused run_finished',
    ]);
    expect(trace.run.outcome).toMatchObject({
      step: 'screen_destination',
      reason: 'handoff_timed_out',
    });
  });

  it('logs that there was nothing to answer before any handoff was requested', async () => {
    const trace = await runTrace(
      bankPayout,
      bankPayout.definition.example_inputs,
      plan(true, { kind: 'late', outcome: 'confirmed' }),
      'none',
    );
    expect(trace.log[0]).toMatch(/^late(: none| confirmed \w+: refused step_not_awaiting)$/);
  });

  it.each([qr, bankPayout, wallet].map((compiled) => [compiled.id, compiled] as const))(
    'never change a run of %s, wherever they arrive',
    async (_id, compiled) => {
      const staleAction = fc.oneof(
        fc.record({
          kind: fc.constant('late' as const),
          outcome: fc.constantFrom('confirmed' as const, 'rejected' as const, 'failed' as const),
        }),
        fc.record({
          kind: fc.constant('out_of_order' as const),
          variant: fc.constantFrom('other_step' as const, 'old_attempt' as const),
          outcome: fc.constantFrom('confirmed' as const, 'rejected' as const, 'failed' as const),
        }),
      );
      await fc.assert(
        fc.asyncProperty(
          inputsArbitrary(compiled),
          signalPlanArbitrary({ maxActions: 12 }),
          fc.array(fc.tuple(fc.nat(), staleAction), { maxLength: 6 }),
          async (inputs, base, insertions) => {
            const actions = [...base.actions];
            for (const [at, action] of insertions)
              actions.splice(at % (actions.length + 1), 0, action);
            const withStale = await runTrace(compiled, inputs, { ...base, actions }, 'same');
            const without = await runTrace(compiled, inputs, base, 'same');
            expect(staleAnswerViolations(withStale)).toEqual([]);
            expect(withStale.run.evidence.chain_head).toBe(without.run.evidence.chain_head);
          },
        ),
        { numRuns: 40 },
      );
    },
  );
});

describe('staleAnswerViolations', () => {
  it('reports a stale answer that was applied, and a refusal that appended records', async () => {
    const trace = await runTrace(wallet, wallet.definition.example_inputs, plan(true), 'tamper');
    const entry = trace.timeline[0]!;
    const tampered = {
      ...trace,
      timeline: [
        { ...entry, stale: true, outcome: 'applied' as const, action: 'late answer x: confirmed' },
        { ...entry, outcome: 'refused' as const, code: 'step_not_awaiting', action: 'cancel' },
      ],
    };
    expect(staleAnswerViolations(tampered)).toEqual([
      `late answer x: confirmed was applied at ${entry.at}; it must be refused`,
      `cancel was refused at ${entry.at} yet appended ${entry.records.map((record) => record.type).join(', ')}`,
    ]);
  });
});
