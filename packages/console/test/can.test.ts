// The scope helper: what the console renders for a principal's scopes.
import { describe, expect, it } from 'vitest';
import { can } from '../app/auth/can.js';

describe('can', () => {
  it('grants a plain scope only when held', () => {
    expect(can(['runs:read'], 'runs:read')).toBe(true);
    expect(can(['runs:read'], 'runs:write')).toBe(false);
    expect(can([], 'evidence:export')).toBe(false);
    expect(can(['runs:read:x'], 'runs:read')).toBe(false);
  });

  it('grants a party scope unlimited, or for the party named', () => {
    expect(can(['approvals:decide'], 'approvals:decide', 'payments_ops')).toBe(true);
    expect(can(['approvals:decide:payments_ops'], 'approvals:decide', 'payments_ops')).toBe(true);
    expect(can(['approvals:decide:payments_ops'], 'approvals:decide', 'finance')).toBe(false);
    expect(can(['handoffs:answer:bank'], 'handoffs:answer', 'bank')).toBe(true);
    expect(can(['handoffs:answer:bank'], 'approvals:decide', 'bank')).toBe(false);
  });

  it('grants for any of several parties (a step’s approvers)', () => {
    const scopes = ['approvals:decide:finance'];
    expect(can(scopes, 'approvals:decide', ['payments_ops', 'finance'])).toBe(true);
    expect(can(scopes, 'approvals:decide', ['payments_ops'])).toBe(false);
    expect(can(scopes, 'approvals:decide', [])).toBe(false);
    expect(can(['approvals:decide'], 'approvals:decide', [])).toBe(true);
  });

  it('without a party, any grant of the scope counts; a null party needs the unlimited one', () => {
    expect(can(['approvals:decide:finance'], 'approvals:decide')).toBe(true);
    expect(can(['approvals:decide:finance'], 'approvals:decide', null)).toBe(false);
    expect(can(['approvals:decide'], 'approvals:decide', null)).toBe(true);
    expect(can(['runs:read'], 'approvals:decide')).toBe(false);
  });

  it('does not take a prefix for a party', () => {
    expect(can(['approvals:decide:fin'], 'approvals:decide', 'finance')).toBe(false);
    expect(can(['approvals:decider'], 'approvals:decide')).toBe(false);
  });
});
