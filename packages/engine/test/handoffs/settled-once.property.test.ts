// Random connector behaviours and callbacks, two hosts on one store: every handoff settles
// at most once, and each run's records stay consistent (one outcome, calls numbered in
// order, a valid chain, every job closed).
import fc from 'fast-check';
import { verifyChain } from '@programrun/evidence';
import { describe, expect, it } from 'vitest';
import {
  EngineError,
  PermanentConnectorError,
  TransientConnectorError,
  partnerIdempotencyKey,
  type HandoffAnswer,
  type HandoffConnector,
  type LifecycleRecord,
  type RunRecord,
} from '../../src/index.js';
import { createPayout, harness, jobsOf, live } from './harness.js';

type Behaviour =
  'confirm' | 'reject' | 'fail' | 'accepted' | 'transient' | 'permanent' | 'throw' | 'invalid';
const behaviour = fc.constantFrom<Behaviour>(
  'confirm',
  'reject',
  'fail',
  'accepted',
  'transient',
  'permanent',
  'throw',
  'invalid',
);
const OUTCOMES = new Set(
  ['confirmed', 'rejected', 'failed', 'timed_out'].map((name) => `program_run.handoff.${name}`),
);

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function act(what: Behaviour, call: number): HandoffAnswer | 'accepted' {
  switch (what) {
    case 'confirm':
      return { outcome: 'confirmed', reference: `C-${call}` };
    case 'reject':
      return { outcome: 'rejected', reference: `R-${call}` };
    case 'fail':
      return { outcome: 'failed', reference: `F-${call}`, data: { why: 'declined' } };
    case 'accepted':
      return 'accepted';
    case 'transient':
      throw new TransientConnectorError('http_5xx', 'unavailable', 503);
    case 'permanent':
      throw new PermanentConnectorError('http_4xx', 'refused', { status: 400 });
    case 'throw':
      throw new Error('boom');
    case 'invalid':
      return { outcome: 'maybe' } as unknown as HandoffAnswer;
  }
}

/** The checks every run's history must pass. */
function checkRun(records: readonly LifecycleRecord[], callsMade: readonly number[], pik: string) {
  const outcomes = records.filter((record) => OUTCOMES.has(record.type));
  expect(outcomes).toHaveLength(1);
  const attempted = records.filter((record) => record.type === 'program_run.handoff.attempted');
  const calls = attempted.map((record) => record.data.call as number);
  expect([...calls].sort((a, b) => a - b)).toEqual(calls);
  expect(new Set(calls).size).toBe(calls.length);
  expect(calls.every((call) => callsMade.includes(call))).toBe(true);
  expect(attempted.every((record) => record.data.idempotency_key === pik)).toBe(true);
  // An answer the connector gave is applied right after its attempt record.
  for (const record of attempted.filter((item) =>
    ['answered', 'failed'].includes(item.data.outcome as string),
  ))
    expect(OUTCOMES.has(records[records.indexOf(record) + 1]!.type)).toBe(true);
  const answeredBy = outcomes[0]!.data.answered_by as { actor: string } | undefined;
  if (answeredBy?.actor === 'connector:bank')
    expect(records[records.indexOf(outcomes[0]!) - 1]!.type).toBe('program_run.handoff.attempted');
  // Nothing is recorded about the handoff once it settled; the seal is last.
  const settled = records.indexOf(outcomes[0]!);
  expect(
    records.slice(settled).some((record) => record.type === 'program_run.handoff.attempted'),
  ).toBe(false);
  expect(records.at(-1)!.type).toBe('program_run.evidence.sealed');
  expect(verifyChain(records)).toMatchObject({ ok: true });
}

describe('live handoffs under random partner behaviour', () => {
  it('settles every handoff at most once with consistent records', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.array(fc.tuple(behaviour, fc.nat(3)), { minLength: 1, maxLength: 6 }), {
          minLength: 1,
          maxLength: 3,
        }),
        fc.array(
          fc.record({
            run: fc.nat(2),
            callback: fc.option(fc.constantFrom('confirmed', 'rejected', 'failed'), { freq: 3 }),
            // `during`: the partner's callback arrives while a connector call is out.
            during: fc.boolean(),
            advanceMs: fc.integer({ min: 0, max: 40_000 }),
          }),
          { minLength: 1, maxLength: 12 },
        ),
        async (scripts, rounds) => {
          const calls = new Map<string, number[]>();
          const racing = new Map<string, () => Promise<unknown>>();
          const connector: HandoffConnector = async (request, context) => {
            const runIndex = runs.findIndex((run) => run.id === request.run_id);
            const script = scripts[runIndex]!;
            const [what, delay] = script[Math.min(context.attempt - 1, script.length - 1)]!;
            calls.set(request.run_id, [...(calls.get(request.run_id) ?? []), context.attempt]);
            expect(context.idempotencyKey).toBe(request.idempotency_key);
            const callback = racing.get(request.run_id);
            racing.delete(request.run_id);
            if (callback) await callback();
            await sleep(delay);
            return act(what, context.attempt);
          };
          const options = {
            connectors: { bank: connector },
            handoffs: { retry: { initialMs: 1_000, factor: 2, maxMs: 8_000 } },
          };
          const { engine, store, clock, advance } = harness(options);
          // A second host on the same store: the two claim and settle side by side.
          const other = harness({ ...options, store, clock }).engine;
          const runs: RunRecord[] = [];
          while (runs.length < scripts.length) runs.push(await createPayout(engine));
          for (const round of rounds) {
            const target = runs[round.run % runs.length]!;
            const outcome = round.callback;
            const callback = () =>
              outcome
                ? engine
                    .signal(live, target.id, {
                      kind: 'handoff',
                      step: 'pay',
                      outcome,
                      reference: `CB-${round.run}`,
                      idempotency_key: partnerIdempotencyKey(target.id, 'pay', 1),
                    })
                    .catch((error: unknown) => {
                      if (!(error instanceof EngineError)) throw error;
                    })
                : undefined;
            if (round.during) racing.set(target.id, async () => callback());
            await Promise.all([
              engine.runDueHandoffs('live'),
              other.runDueHandoffs('live'),
              round.during ? undefined : callback(),
            ]);
            racing.clear();
            advance(round.advanceMs);
            await engine.runDueTimers('live');
          }
          advance(11 * 60_000);
          await engine.runDueTimers('live');
          await engine.runDueHandoffs('live');
          for (const run of runs) {
            const after = await engine.getRun(live, run.id);
            expect(['completed', 'faulted']).toContain(after.status);
            const made = calls.get(run.id) ?? [];
            expect(made).toEqual(made.map((_call, index) => index + 1));
            checkRun(
              await engine.listEvents(live, run.id),
              made,
              partnerIdempotencyKey(run.id, 'pay', 1),
            );
            expect((await jobsOf(store, run.id)).map((job) => job.status)).toEqual(['closed']);
          }
        },
      ),
      { numRuns: 60 },
    );
  });
});
