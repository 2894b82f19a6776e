import { compile, type CompiledScenario, type RunEvent, type StepResult } from '../src/index.js';

/** Wraps stages (and optional extra top-level YAML) in a minimal valid scenario. */
export function scenarioText(
  body: string,
  inputs = '{ type: object, properties: { amount: { type: string, format: money } } }',
): string {
  return `scenario: machine-test
version: v1
title: Machine test
summary: A scenario built for one test.
family: bank_payout
asset_track: public_demo
inputs: ${inputs}
example_inputs: {}
parties:
  bank: { name: Bank, role: banking }
  fx: { name: FX desk, role: fx }
  ops: { name: Operations, role: operations, kind: operator }
  payer: { name: Payer, role: customer, kind: customer }
${body}`;
}

const AT = '2026-01-01T00:00:00.000Z';

/** Drives a compiled scenario step by step, keeping every fact; snapshots go through JSON. */
export class Driver {
  readonly compiled: CompiledScenario;
  result: StepResult;
  readonly facts: string[] = [];

  constructor(body: string, inputs: Record<string, unknown> = {}, inputSchema?: string) {
    this.compiled = compile(scenarioText(body, inputSchema));
    this.result = this.compiled.start({ environment: 'test', inputs: inputs as never });
    this.#keep();
  }

  #keep(): void {
    this.facts.push(
      ...this.result.facts.map(
        (fact) => `${fact.type}${fact.step ? `:${fact.step}` : fact.stage ? `:${fact.stage}` : ''}`,
      ),
    );
  }

  send(event: RunEvent): boolean {
    const stored = JSON.parse(JSON.stringify(this.result.snapshot)) as StepResult['snapshot'];
    const next = this.compiled.transition(stored, event);
    if (next.accepted) {
      this.result = next;
      this.#keep();
    }
    return next.accepted;
  }

  approve(step: string, approver = 'alice', decision: 'approve' | 'reject' = 'approve'): boolean {
    return this.send({ type: 'approval.decision', step, decision, approver, at: AT });
  }

  answer(
    step: string,
    outcome: 'confirmed' | 'rejected' | 'failed' = 'confirmed',
    data: Record<string, unknown> = {},
  ): boolean {
    return this.send({
      type: 'handoff.outcome',
      step,
      outcome,
      reference: `ref_${step}`,
      data: data as never,
      at: AT,
    });
  }

  fire(step: string): boolean {
    return this.send({
      type: 'timer.fired',
      step,
      attempt: this.result.snapshot.context.attempts[step] ?? 0,
      at: AT,
    });
  }

  cancel(reason = 'asked'): boolean {
    return this.send({ type: 'run.cancel', reason, at: AT });
  }

  get state() {
    return this.result.state;
  }
}
