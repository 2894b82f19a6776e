import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  AUTH_SCOPES,
  grantsPartyScope,
  grantsScope,
  isActor,
  isAuthScope,
  normalizeAuthScopes,
} from '../src/index.js';
import { EngineError } from '../src/errors.js';

const party = fc.stringMatching(/^[a-z][a-z0-9_]{0,20}$/);

describe('auth scopes', () => {
  it('knows the six scopes and the party-limited forms of approvals and handoffs', () => {
    for (const scope of AUTH_SCOPES) expect(isAuthScope(scope)).toBe(true);
    expect(isAuthScope('approvals:decide:payments_ops')).toBe(true);
    expect(isAuthScope('handoffs:answer:payout_bank')).toBe(true);
    for (const bad of [
      'runs:read:payout_bank',
      'webhooks:manage:x',
      'handoffs:answer:',
      'handoffs:answer:Payout',
      'handoffs:answer:a:b',
      'handoffs',
      '*',
      '',
      42,
    ]) {
      expect(isAuthScope(bad), String(bad)).toBe(false);
    }
  });

  it('normalizes a list: known scopes only, no repeats, in catalogue order', () => {
    expect(
      normalizeAuthScopes([
        'handoffs:answer:payout_bank',
        'runs:write',
        'handoffs:answer',
        'runs:write',
        'approvals:decide:finance_control',
        'approvals:decide:compliance_desk',
      ]),
    ).toEqual([
      'runs:write',
      'approvals:decide:compliance_desk',
      'approvals:decide:finance_control',
      'handoffs:answer',
      'handoffs:answer:payout_bank',
    ]);
    expect(() => normalizeAuthScopes(['runs:read', 'runs:delete'])).toThrow(
      /unknown scope "runs:delete"/,
    );
    expect(() => normalizeAuthScopes([])).toThrow(EngineError);
  });

  it('grants a route scope by the scope or any party-limited form of it', () => {
    expect(grantsScope(['runs:read'], 'runs:read')).toBe(true);
    expect(grantsScope(['runs:read'], 'runs:write')).toBe(false);
    expect(grantsScope(['handoffs:answer:payout_bank'], 'handoffs:answer')).toBe(true);
    // A prefix of another scope's name is not that scope.
    expect(grantsScope(['runs:readers'], 'runs:read')).toBe(false);
  });

  it('property: a party-limited scope grants exactly its party; the unlimited one every party', () => {
    fc.assert(
      fc.property(party, fc.array(party, { maxLength: 4 }), (held, steps) => {
        for (const base of ['approvals:decide', 'handoffs:answer'] as const) {
          expect(grantsPartyScope([`${base}:${held}`], base, steps)).toBe(steps.includes(held));
          expect(grantsPartyScope([base], base, steps)).toBe(true);
          expect(grantsPartyScope(['runs:read', 'runs:write'], base, steps)).toBe(false);
        }
      }),
    );
  });

  it('accepts actors of 1–128 characters without control characters or outer spaces', () => {
    for (const actor of [
      'ops:alice',
      'Zoë Müller',
      'partner:payout_bank',
      'key_abc',
      'a'.repeat(128),
    ])
      expect(isActor(actor), actor).toBe(true);
    for (const actor of ['', ' a', 'a ', 'a\tb', 'a\u0000b', 'a\u200bb', 'a'.repeat(129), 7])
      expect(isActor(actor), String(actor)).toBe(false);
  });
});
