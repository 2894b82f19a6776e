import type { Family } from '@programrun/dsl';

/** The party role of the scaffold's executing partner, by family. */
const PARTNER_ROLE: Readonly<Record<Family, { role: string; name: string; action: string }>> = {
  wallet_delivery: { role: 'custody', name: 'Custodian', action: 'asset.transfer' },
  bank_payout: { role: 'banking', name: 'Payout bank', action: 'payout.execute' },
  treasury_conversion: { role: 'fx', name: 'FX desk', action: 'conversion.execute' },
  bridge_routing: { role: 'bridge', name: 'Bridge operator', action: 'bridge.transfer' },
  asset_servicing: { role: 'paying_agent', name: 'Paying agent', action: 'distribution.pay' },
};

/** `demo-payout` → `Demo payout`. */
const titleOf = (name: string): string => {
  const words = name.split('-').join(' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
};

/**
 * A minimal valid scenario: one stage with a limit check, a release approval and a
 * partner handoff, example inputs, and the YAML language server's `$schema` line.
 */
export function scenarioTemplate(options: {
  readonly name: string;
  readonly family: Family;
  readonly schema: string;
}): string {
  const partner = PARTNER_ROLE[options.family];
  return `# yaml-language-server: $schema=${options.schema}
scenario: ${options.name}
version: v1
title: ${titleOf(options.name)}
summary: >-
  Moves an amount through a partner after a limit check and a release by operations.
  (Scaffolded by programrun new: describe what the scenario does, for people.)
family: ${options.family}
asset_track: public_demo
duration: { min: PT5M, max: P1D }

inputs:
  type: object
  additionalProperties: false
  required: [amount, currency, reference]
  properties:
    amount:
      type: string
      format: money
      description: Amount to move, a decimal string with two fraction digits.
    currency:
      type: string
      format: currency-code
      description: ISO 4217 currency code.
    reference:
      type: string
      maxLength: 35
      description: The platform's own reference.

example_inputs:
  amount: '250.00'
  currency: EUR
  reference: ref-0001

parties:
  partner:
    name: ${partner.name}
    role: ${partner.role}
    simulation: { latency: PT30S }
  operations:
    name: Operations
    role: operations
    kind: operator

policy:
  - id: within_limit
    description: Single movements are capped at 50,000.00.
    when: money(inputs.amount) <= money("50000.00")
    otherwise: deny

invariants:
  - id: released_before_execution
    description: Nothing is executed before operations release it.
    before: [release]
    then: [execute]

stages:
  - id: main
    title: Check, release and execute
    steps:
      - id: limits
        kind: check
        title: Amount within limits
        rules: [within_limit]
      - id: release
        kind: approval
        title: Operations release the movement
        approvers: [operations]
        expires: PT4H
      - id: execute
        kind: handoff
        title: ${partner.name} executes the movement
        party: partner
        action: ${partner.action}
        request:
          amount: inputs.amount
          currency: inputs.currency
          reference: inputs.reference
        timeout: PT1H
        simulation:
          data:
            partner_reference: '"P-" + inputs.reference'
`;
}
