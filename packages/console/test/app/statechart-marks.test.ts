// Where a run has been on its diagram, from its lifecycle records.
import { describe, expect, it } from 'vitest';
import { statechartMarks } from '../../app/pages/run/statechart-marks.js';

const record = (sequence: number, type: string, step: string | null = null) => ({
  sequence,
  type: `program_run.${type}`,
  step,
});

describe('statechartMarks', () => {
  it('lights visited steps in order, the edges between them and the current step', () => {
    const marks = statechartMarks(
      [
        record(1, 'created'),
        record(2, 'stage.started'),
        record(3, 'policy.evaluated', 'screen'),
        record(4, 'handoff.requested', 'hold_funds'),
        record(5, 'handoff.confirmed', 'hold_funds'),
        record(6, 'approval.requested', 'release_approval'),
      ],
      { status: 'waiting', awaiting: { step: 'release_approval' } },
    );
    expect(marks.visited).toEqual(['step_screen', 'step_hold_funds', 'step_release_approval']);
    expect(marks.current).toBe('step_release_approval');
    expect(marks.taken).toEqual([
      { from: 'run_start', to: 'step_screen' },
      { from: 'step_screen', to: 'step_hold_funds' },
      { from: 'step_hold_funds', to: 'step_release_approval' },
    ]);
  });

  it('marks skipped steps apart, and the ending of a final run', () => {
    const marks = statechartMarks(
      [
        record(3, 'step.skipped', 'optional_check'),
        record(2, 'policy.evaluated', 'screen'),
        record(4, 'record.created', 'deliver'),
        record(5, 'completed'),
      ],
      { status: 'completed', awaiting: null },
    );
    expect(marks.visited).toEqual(['step_screen', 'step_deliver']);
    expect(marks.skipped).toEqual(['step_optional_check']);
    expect(marks.current).toBeNull();
    expect(marks.taken.at(-1)).toEqual({ from: 'step_deliver', to: 'ending_complete' });
    expect(marks.taken).toContainEqual({ from: 'step_screen', to: 'step_optional_check' });
  });

  it('has nothing to light before the first step', () => {
    expect(statechartMarks([record(1, 'created')], { status: 'running', awaiting: null })).toEqual({
      visited: [],
      skipped: [],
      current: null,
      taken: [],
    });
  });
});
