// upgradedSnapshot: a waiting run's snapshot as a run of the new version, at the mapped
// step, with renamed steps' context under their new ids.
import { describe, expect, it } from 'vitest';
import type { FlowGraph, PersistedSnapshot, RunContext } from '@programrun/dsl';
import { upgradedSnapshot } from '../src/upgrades/upgraded-snapshot.js';

const graph = {
  steps: new Map([
    ['approve_release', { id: 'approve_release', stage: 'release' }],
    ['refund_hold', { id: 'refund_hold', stage: null }],
  ]),
} as unknown as FlowGraph;

const context = {
  environment: 'test',
  inputs: {},
  routes: { pick_rail: 'sepa' },
  route_selections: {},
  records: {},
  checks: { limits: { decision: 'allow' } },
  approvals: { release_approval: [{ approver: 'ops:a', decision: 'approve' }] },
  handoffs: { hold_funds: { outcome: 'confirmed' } },
  attempts: { hold_funds: 1, release_approval: 2 },
  progress: { hold_funds: 'completed' },
  compensation_stack: ['release_hold'],
  ending: null,
} as unknown as RunContext;

const waitingAt = (outer: string, step: string): PersistedSnapshot => ({
  value: { [outer]: { [step]: 'active' } },
  context,
});

describe('upgradedSnapshot', () => {
  it('rests at the new step in its stage, with renamed steps under their new ids', () => {
    const moved = upgradedSnapshot(waitingAt('release', 'release_approval'), {
      from: 'release_approval',
      to: 'approve_release',
      graph,
      renames: { release_approval: 'approve_release', release_hold: 'refund_hold' },
    });
    expect(moved).toEqual({
      value: { release: { approve_release: 'active' } },
      context: {
        ...context,
        approvals: { approve_release: context.approvals.release_approval },
        attempts: { hold_funds: 1, approve_release: 2 },
        compensation_stack: ['refund_hold'],
      },
    });
  });

  it('keeps the attempt of a run moved to a step that is no rename, and rests a compensation under compensating', () => {
    const compensating = {
      ...waitingAt('compensating', 'release_hold'),
      context: { ...context, attempts: { ...context.attempts, release_hold: 3 } },
    } as PersistedSnapshot;
    const moved = upgradedSnapshot(compensating, {
      from: 'release_hold',
      to: 'refund_hold',
      graph,
      renames: {},
    }) as PersistedSnapshot;
    expect(moved.value).toEqual({ compensating: { refund_hold: 'active' } });
    expect(moved.context.attempts).toEqual({
      ...context.attempts,
      release_hold: 3,
      refund_hold: 3,
    });
  });

  it('says why a snapshot cannot move', () => {
    const move = { from: 'release_approval', to: 'approve_release', graph, renames: {} };
    expect(upgradedSnapshot(waitingAt('release', 'hold_funds'), move)).toBe(
      'the run does not rest at "release_approval"',
    );
    expect(
      upgradedSnapshot(waitingAt('release', 'release_approval'), { ...move, to: 'gone' }),
    ).toBe('"gone" is not a step of the new version');
  });
});
