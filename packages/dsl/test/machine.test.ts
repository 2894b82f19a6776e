import { describe, expect, it } from 'vitest';
import { Driver } from './driver.js';

describe('compiled machines', () => {
  it('routes to the first eligible alternative, records every alternative and skips by when', () => {
    const body = `stages:
  - id: routing
    title: Routing
    steps:
      - id: choose
        kind: route
        title: Choose a rail
        alternatives:
          - { id: instant, when: 'money(inputs.amount) <= money("100.00")', reason: Small amounts go instant, next: instant_pay }
          - { id: wire, when: "true", reason: Everything else goes by wire }
      - id: wire_pay
        kind: handoff
        title: Wire
        party: bank
        action: payout.wire
        timeout: PT1H
        next: complete
      - id: instant_pay
        kind: handoff
        title: Instant
        party: bank
        action: payout.instant
        timeout: PT1M
      - id: instant_note
        kind: record
        title: Instant note
        record: note
        when: routes.choose == "wire"
        data: { rail: routes.choose }
`;
    const small = new Driver(body, { amount: '50.00' });
    expect(small.state.awaiting?.step).toBe('instant_pay');
    expect(small.result.snapshot.context.route_selections.choose).toEqual({
      selected: 'instant',
      reason: 'Small amounts go instant',
      alternatives: [
        { id: 'instant', eligible: true, reason: 'Small amounts go instant', error: null },
        { id: 'wire', eligible: true, reason: 'Everything else goes by wire', error: null },
      ],
    });
    small.answer('instant_pay');
    expect(small.facts).toContain('step.skipped:instant_note');
    expect(small.state.status).toBe('completed');

    const large = new Driver(body, { amount: '500.00' });
    expect(large.state.awaiting?.step).toBe('wire_pay');
    large.answer('wire_pay');
    expect(large.state.status).toBe('completed');
    expect(large.facts).not.toContain('handoff.requested:instant_pay');
  });

  const saga = `stages:
  - id: posting
    title: Posting
    steps:
      - { id: hold, kind: handoff, title: Hold funds, party: bank, action: hold.place, timeout: PT1M, compensate: release_hold }
      - { id: convert, kind: handoff, title: Convert, party: fx, action: fx.convert, timeout: PT1M, compensate: unwind_fx, PIVOT }
      - id: confirm
        kind: approval
        title: Payer confirms
        approvers: [payer]
        expires: PT10M
        on_reject: REJECT
      - { id: pay, kind: handoff, title: Pay, party: bank, action: payout.execute, timeout: PT1M, on_fail: compensate }
compensations:
  - { id: release_hold, kind: handoff, title: Release hold, party: bank, action: hold.release, timeout: PT1M }
  - { id: unwind_fx, kind: handoff, title: Unwind FX, party: fx, action: fx.unwind, timeout: PT1M }
`;
  const sagaWith = (reject: string, pivot = false) =>
    saga.replace('REJECT', reject).replace(', PIVOT', pivot ? ', next: confirm' : '');

  it('compensates completed steps in reverse order, then faults', () => {
    const run = new Driver(sagaWith('fault'));
    run.answer('hold');
    run.answer('convert');
    run.approve('confirm', 'payer:1');
    run.answer('pay', 'failed');
    expect(run.state).toMatchObject({
      status: 'active',
      compensating: true,
      awaiting: { step: 'unwind_fx' },
    });
    run.answer('unwind_fx');
    expect(run.state.awaiting?.step).toBe('release_hold');
    run.answer('release_hold');
    expect(run.state).toMatchObject({
      status: 'faulted',
      ending: { step: 'pay', reason: 'handoff_failed' },
    });
    expect(run.facts.slice(-8)).toEqual([
      'handoff.failed:pay',
      'compensation.started:pay',
      'handoff.requested:unwind_fx',
      'handoff.confirmed:unwind_fx',
      'handoff.requested:release_hold',
      'handoff.confirmed:release_hold',
      'compensation.completed',
      'run.faulted:pay',
    ]);
  });

  it('ends cancelled through compensations when the payer declines', () => {
    const run = new Driver(sagaWith('cancel'));
    run.answer('hold');
    run.answer('convert');
    run.approve('confirm', 'payer:1', 'reject');
    run.answer('unwind_fx');
    run.answer('release_hold');
    expect(run.state).toMatchObject({
      status: 'cancelled',
      ending: { status: 'cancelled', step: 'confirm', reason: 'approval_rejected' },
    });
  });

  it('faults for manual repair when a compensation fails', () => {
    const run = new Driver(sagaWith('compensate'));
    run.answer('hold');
    run.answer('convert');
    run.approve('confirm', 'payer:1', 'reject');
    run.answer('unwind_fx', 'rejected');
    expect(run.state).toMatchObject({
      status: 'faulted',
      ending: { step: 'unwind_fx', reason: 'compensation_failed' },
    });
  });

  it('discharges compensations at a pivot', () => {
    const body = sagaWith('compensate')
      .replace('compensate: unwind_fx', 'pivot: true')
      .replace(/ {2}- \{ id: unwind_fx.*\n/, '');
    const run = new Driver(body);
    run.answer('hold');
    run.answer('convert');
    expect(run.facts).toContain('compensation.discharged:convert');
    run.approve('confirm', 'payer:1', 'reject');
    expect(run.state).toMatchObject({ status: 'faulted', ending: { reason: 'approval_rejected' } });
    expect(run.facts).not.toContain('handoff.requested:release_hold');
  });

  it('refuses cancel while a partner executes and accepts it at an approval', () => {
    const run = new Driver(sagaWith('fault'));
    expect(run.cancel()).toBe(false);
    run.answer('hold');
    run.answer('convert');
    expect(run.cancel('changed mind')).toBe(true);
    expect(run.state.compensating).toBe(true);
    run.answer('unwind_fx');
    run.answer('release_hold');
    expect(run.state).toMatchObject({ status: 'cancelled', ending: { message: 'changed mind' } });
  });

  it('bounds retry loops with max_attempts and records stage rewinds', () => {
    const run = new Driver(`stages:
  - id: quote
    title: Quote
    steps:
      - { id: get_quote, kind: handoff, title: Quote, party: fx, action: fx.quote, timeout: PT1M }
  - id: acceptance
    title: Acceptance
    steps:
      - id: accept
        kind: approval
        title: Accept the quote
        approvers: [ops]
        expires: PT2M
        on_timeout: get_quote
        max_attempts: 2
        on_exhausted: cancel
`);
    run.answer('get_quote');
    run.fire('accept');
    expect(run.facts).toContain('stage.rewound:acceptance');
    run.answer('get_quote');
    run.fire('accept');
    run.answer('get_quote');
    expect(run.state).toMatchObject({
      status: 'cancelled',
      ending: { step: 'accept', reason: 'attempts_exhausted' },
    });
    expect(run.facts.filter((fact) => fact === 'approval.requested:accept')).toHaveLength(2);
    expect(run.facts).toContain('step.exhausted:accept');
  });

  it('counts distinct approvers to quorum and keeps four eyes', () => {
    const run = new Driver(`stages:
  - id: approvals
    title: Approvals
    steps:
      - { id: submit, kind: approval, title: Maker submits, approvers: [ops], expires: P1D }
      - { id: release, kind: approval, title: Checkers release, approvers: [ops], quorum: 2, maker_checker: true, expires: P1D }
      - { id: pay, kind: handoff, title: Pay, party: bank, action: payout.execute, timeout: PT1M }
`);
    run.approve('submit', 'alice');
    expect(run.approve('release', 'alice')).toBe(false);
    expect(run.approve('release', 'bob')).toBe(true);
    expect(run.approve('release', 'bob')).toBe(false);
    expect(run.state.awaiting?.step).toBe('release');
    expect(run.approve('release', 'carol')).toBe(true);
    expect(run.state.awaiting?.step).toBe('pay');
    expect(run.facts).toEqual(
      expect.arrayContaining(['approval.recorded:release', 'approval.granted:release']),
    );
  });

  it('faults with expression_error when an expression fails at run time', () => {
    const run = new Driver(`stages:
  - id: intake
    title: Intake
    steps:
      - id: note
        kind: record
        title: Note the amount
        record: note
        data: { amount: decimal(money(inputs.amount)) }
`);
    expect(run.state).toMatchObject({
      status: 'faulted',
      ending: { step: 'note', reason: 'expression_error' },
    });
    expect(run.state.ending?.message).toContain('amount');
  });

  it('ignores stale timers and events for other steps', () => {
    const run = new Driver(`stages:
  - id: intake
    title: Intake
    steps:
      - { id: cool_off, kind: wait, title: Cool off, duration: PT1H }
      - { id: pay, kind: handoff, title: Pay, party: bank, action: payout.execute, timeout: PT1M }
`);
    expect(
      run.send({
        type: 'timer.fired',
        step: 'cool_off',
        attempt: 7,
        at: '2026-01-01T00:00:00.000Z',
      }),
    ).toBe(false);
    expect(run.answer('pay')).toBe(false);
    expect(run.fire('cool_off')).toBe(true);
    expect(run.facts).toEqual(
      expect.arrayContaining(['wait.started:cool_off', 'wait.completed:cool_off']),
    );
    expect(run.state.awaiting?.step).toBe('pay');
  });
});

describe('policy state', () => {
  it('keeps rules that read a route, record or partner answer pending until that step has run', () => {
    const run = new Driver(`policy:
  - { id: rail_is_instant, description: Only instant rails, when: 'routes.choose == "instant"', otherwise: deny }
  - { id: screened, description: Screened clear, when: 'handoffs.screen.data.result == "clear"', otherwise: deny }
stages:
  - id: intake
    title: Intake
    steps:
      - id: screen
        kind: handoff
        title: Screen
        party: bank
        action: party.screen
        timeout: PT1M
        simulation: { data: { result: '"clear"' } }
      - id: choose
        kind: route
        title: Choose
        alternatives:
          - { id: instant, when: "true", reason: Always instant }
          - { id: wire, when: "false", reason: Never }
      - { id: pay, kind: handoff, title: Pay, party: bank, action: payout.execute, timeout: PT1M }
`);
    const pending = run.compiled.policyState(run.result.snapshot.context);
    expect(pending.rules.map((rule) => rule.outcome)).toEqual(['pending', 'pending']);
    expect(pending.decision).toBe('allow');
    run.answer('screen', 'confirmed', { result: 'clear' });
    const settled = run.compiled.policyState(run.result.snapshot.context);
    expect(settled.rules.map((rule) => rule.outcome)).toEqual(['pass', 'pass']);
  });
});
