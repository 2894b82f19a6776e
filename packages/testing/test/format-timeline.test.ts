import { describe, expect, it } from 'vitest';
import { formatTimeline, loadCompiledScenario, runTrace } from '../src/index.js';

const qr = await loadCompiledScenario(
  new URL('../../../scenarios/qr-merchant-settlement@v1.yaml', import.meta.url),
);
const fixture = await loadCompiledScenario(
  new URL('./fixtures/supplier-payout@v1.yaml', import.meta.url),
);

describe('formatTimeline', () => {
  it('shows each action with its time, what the run waited on, its outcome and transitions', async () => {
    const trace = await runTrace(
      qr,
      qr.definition.example_inputs,
      {
        partnersAnswer: true,
        actions: [
          { kind: 'next' },
          { kind: 'decide', decision: 'approve', approver: 1 },
          { kind: 'next' },
          { kind: 'late', outcome: 'confirmed' },
          { kind: 'advance', seconds: 90 },
          { kind: 'decide', decision: 'reject', approver: 2 },
        ],
        drain: 'expire',
      },
      'timeline',
    );
    const lines = formatTimeline(trace).split('\n');
    expect(lines[0]).toBe(
      'timeline of qr-merchant-settlement@v1 · ids timeline · partners answer · drain expire (at most 400 rounds)',
    );
    expect(lines[1]).toMatch(/^inputs \{"payer_market":"SG",/);
    expect(lines[2]).toMatch(/^ {2}time +waiting on +action +outcome$/);
    expect(lines).toContainEqual(
      expect.stringMatching(
        /^ {2}\+0:00:03 +handoff lock_fx_quote +approve qr_intake as approver_1 +refused step_not_awaiting$/,
      ),
    );
    expect(lines).toContainEqual(
      expect.stringMatching(
        /^ {2}\+0:00:04 +approval payer_approval +stale: late answer lock_fx_quote: confirmed \(key of lock_fx_quote attempt 1\) +refused step_not_awaiting$/,
      ),
    );
    expect(lines).toContainEqual(
      expect.stringMatching(/^ {2}\+0:00:04 +approval payer_approval +advance 90s +nothing due$/),
    );
    expect(lines).toContainEqual(
      expect.stringMatching(/^ +→ approval\.rejected payer_approval · .*cancelled payer_approval/),
    );
    expect(lines.at(-1)).toBe('final: cancelled at payer_approval (approval_rejected)');
  });

  it('folds drain actions that repeat and says what the run still waits on', async () => {
    const trace = await runTrace(
      fixture,
      fixture.definition.example_inputs,
      {
        partnersAnswer: false,
        actions: [{ kind: 'decide', decision: 'approve', approver: 0 }],
        drain: 'expire',
      },
      'loop',
      { drainRounds: 12 },
    );
    const text = formatTimeline(trace);
    expect(text).toContain('partners silent');
    expect(text).toMatch(
      /drain: expire deadline \(\+7201s\) +timers fired\n +→ handoff\.timed_out send_payout · stage\.completed payout · stage\.started repair · approval\.requested repair_beneficiary\n/,
    );
    expect(text).toMatch(/\n {12}… the same 2 actions repeat 5 more times, until \+1d 08:00:01\n/);
    expect(text.split('\n').at(-1)).toBe(
      'final: still waiting on handoff send_payout (deadline +1d 14:00:00) after 12 drain rounds',
    );
  });
});
