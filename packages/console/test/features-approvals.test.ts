import { describe, expect, it } from 'vitest';
import type { Awaiting, ListPage, ProgramRun } from '../app/api/types.js';
import {
  allPages,
  pendingApprovals,
  pendingQuery,
} from '../app/features/approvals/pending-approvals.js';

/** A run with only what the Approvals page reads. */
const runOf = (id: string, awaiting: Awaiting | null): ProgramRun =>
  ({ id, scenario_id: 'bank-payout@v1', awaiting }) as ProgramRun;

const approval = (overrides: Partial<Awaiting> = {}): Awaiting => ({
  kind: 'approval',
  step: 'release_approval',
  deadline: '2026-01-02T00:00:00.000Z',
  party: null,
  approvers: ['treasury_ops', 'compliance_desk'],
  quorum: 2,
  approvals: 1,
  decisions: [
    {
      actor: 'key_ops',
      decision: 'approve',
      label: 'Ana',
      note: null,
      at: '2026-01-01T00:00:00.000Z',
    },
  ],
  ...overrides,
});

describe('pending approvals', () => {
  it('makes a row per run awaiting an approval, with quorum, decisions and expiry', () => {
    const rows = pendingApprovals(
      [
        runOf('prun_a', approval()),
        runOf('prun_b', { ...approval(), kind: 'handoff', approvers: null, quorum: null }),
        runOf('prun_c', null),
        runOf('prun_a', approval()),
      ],
      ['approvals:decide'],
    );
    expect(rows).toEqual([
      {
        runId: 'prun_a',
        scenarioId: 'bank-payout@v1',
        step: 'release_approval',
        approvers: ['treasury_ops', 'compliance_desk'],
        quorum: '1 of 2',
        decisions: approval().decisions,
        deadline: '2026-01-02T00:00:00.000Z',
        mayDecide: true,
      },
    ]);
    expect(
      pendingApprovals(
        [runOf('prun_d', approval({ approvals: null, quorum: null, decisions: null }))],
        [],
      )[0],
    ).toMatchObject({ quorum: '0 of 1', decisions: [], mayDecide: false });
  });

  it('lets the principal decide only what its scopes allow', () => {
    const runs = [
      runOf('prun_ops', approval({ approvers: ['treasury_ops'] })),
      runOf('prun_compliance', approval({ approvers: ['compliance_desk'] })),
      runOf('prun_nobody', approval({ approvers: [] })),
    ];
    const may = (scopes: string[]) =>
      pendingApprovals(runs, scopes).map((row) => [row.runId, row.mayDecide]);
    expect(may(['runs:read', 'approvals:decide:treasury_ops'])).toEqual([
      ['prun_ops', true],
      ['prun_compliance', false],
      ['prun_nobody', false],
    ]);
    expect(may(['approvals:decide'])).toEqual([
      ['prun_ops', true],
      ['prun_compliance', true],
      ['prun_nobody', true],
    ]);
    expect(may(['runs:read', 'runs:write'])).toEqual([
      ['prun_ops', false],
      ['prun_compliance', false],
      ['prun_nobody', false],
    ]);
  });

  it('follows every page from the last id of the one before', async () => {
    const ids = Array.from({ length: 250 }, (_, index) => `prun_${index}`);
    const asked: (string | undefined)[] = [];
    const page = (after: string | undefined): Promise<ListPage<{ id: string }>> => {
      asked.push(after);
      const start = after === undefined ? 0 : ids.indexOf(after) + 1;
      const data = ids.slice(start, start + 100).map((id) => ({ id }));
      return Promise.resolve({
        object: 'list',
        url: '/v1/program-runs',
        data,
        has_more: start + 100 < ids.length,
      });
    };
    expect((await allPages(page)).map((item) => item.id)).toEqual(ids);
    expect(asked).toEqual([undefined, 'prun_99', 'prun_199']);
    expect(pendingQuery('prun_99')).toEqual({
      awaiting: 'approval',
      limit: 100,
      starting_after: 'prun_99',
    });
  });

  it('stops on a list that never ends or repeats itself', async () => {
    let calls = 0;
    const stuck = () => {
      calls += 1;
      return Promise.resolve({
        object: 'list' as const,
        url: '/v1/program-runs',
        data: [{ id: 'prun_same' }],
        has_more: true,
      });
    };
    expect(await allPages(stuck)).toHaveLength(2);
    expect(calls).toBe(2);
    let counter = 0;
    const endless = () =>
      Promise.resolve({
        object: 'list' as const,
        url: '/v1/program-runs',
        data: [{ id: `prun_${(counter += 1)}` }],
        has_more: true,
      });
    expect(await allPages(endless, 5)).toHaveLength(5);
    const empty = () =>
      Promise.resolve({ object: 'list' as const, url: '', data: [], has_more: true });
    expect(await allPages(empty)).toEqual([]);
  });
});
