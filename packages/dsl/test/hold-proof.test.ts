// Holds: funds a step reserves are released or settled on every path that does not end
// faulted. The proof is checked on the catalogue's bank-payout@v1 and its mistakes, and
// against brute-force path enumeration on small random graphs.
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  isCompleting,
  loadScenario,
  type EdgeKind,
  type FlowGraph,
  type FlowStep,
  type HoldDefinition,
  type Problem,
} from '../src/index.js';
import { unreleasedPath } from '../src/validate/check-holds.js';

const FILE = 'scenarios/bank-payout@v1.yaml';
const BANK_PAYOUT = readFileSync(new URL(`../../../${FILE}`, import.meta.url), 'utf8');

/** The problems of bank-payout@v1 with `find` replaced by `replace` (which must occur once). */
function problemsWith(find: string, replace: string): readonly Problem[] {
  expect(BANK_PAYOUT.split(find)).toHaveLength(2);
  return loadScenario(BANK_PAYOUT.replace(find, replace), { file: FILE }).problems;
}

/** Line (1-based) of the first line of the document that is exactly `text`. */
const lineOf = (text: string): number => BANK_PAYOUT.split('\n').indexOf(text) + 1;

describe('holds in bank-payout@v1', () => {
  it('proves the catalogue hold: released or settled on every path not ending faulted', () => {
    expect(loadScenario(BANK_PAYOUT, { file: FILE }).problems).toEqual([]);
  });

  it('finds a decline that completes the run with the funds still held, at the hold', () => {
    const problems = problemsWith(
      '        on_reject: cancel\n        on_timeout: compensate\n      - id: release_approval',
      '        on_reject: complete\n        on_timeout: compensate\n      - id: release_approval',
    );
    expect(problems).toHaveLength(1);
    const [problem] = problems;
    expect(problem!.code).toBe('hold_not_released');
    expect(problem!.line).toBe(lineOf('  - id: payout_hold'));
    expect(problem!.column).toBe(5);
    expect(problem!.message).toBe(
      'hold "payout_hold": after "hold_funds" places it, the run can complete without completing "release_hold" or "confirm_credit" (runs ending faulted may keep it): hold_funds → hold_gate → screen_beneficiary → verify_payee → screening_gate → submit_instruction → complete (after submit_instruction: reject)',
    );
  });

  it('finds a cancel request that would leave the hold when no release is registered', () => {
    const problems = problemsWith(
      '        compensate: release_hold\n',
      '        compensate: release_hold_typo\n',
    ).filter((problem) => problem.code === 'hold_not_released');
    expect(problems.map((problem) => problem.message)).toEqual([
      expect.stringContaining(
        'a cancel request while "screening_gate" waits can end the run cancelled without completing "release_hold" or "confirm_credit" and with no releasing compensation registered',
      ),
    ]);
  });

  it('treats a pivot before the settlement as discharging the registered release', () => {
    const problems = problemsWith(
      '        action: payee.verify\n',
      '        action: payee.verify\n        pivot: true\n',
    );
    expect(problems.map((problem) => problem.code)).toEqual(['hold_not_released']);
    expect(problems[0]!.message).toContain('a cancel request while');
  });

  it('names unknown steps and repeated ids where they are written', () => {
    const problems = problemsWith(
      '    released_by: [release_hold]',
      '    released_by: [release_hld]',
    ).concat(
      problemsWith(
        '    settled_by: [confirm_credit]\n',
        '    settled_by: [confirm_credit]\n  - id: payout_hold\n    description: again\n    placed_by: hold_funds\n    settled_by: [confirm_credit]\n    released_by: [release_hold]\n',
      ),
    );
    expect(problems.map(({ code, line, column }) => ({ code, line, column }))).toEqual([
      { code: 'hold_unknown_step', line: lineOf('    released_by: [release_hold]'), column: 19 },
      { code: 'duplicate_id', line: lineOf('    settled_by: [confirm_credit]') + 1, column: 9 },
    ]);
  });
});

/** A step of a random graph: its kind, whether it registers the releasing compensation or is a pivot, and its edges. */
interface RandomStep {
  readonly approval: boolean;
  readonly registers: boolean;
  readonly pivot: boolean;
  readonly edges: readonly { readonly kind: EdgeKind; readonly to: number | string }[];
}

const ENDINGS = ['complete', 'fault', 'compensate', 'cancel'] as const;

const randomGraph = fc.integer({ min: 2, max: 5 }).chain((size) => {
  const to = fc.oneof(fc.integer({ min: 0, max: size - 1 }), fc.constantFrom(...ENDINGS));
  const step = fc.record({
    approval: fc.boolean(),
    registers: fc.boolean(),
    pivot: fc.boolean(),
    edges: fc.tuple(
      fc.record({ kind: fc.constant<EdgeKind>('success'), to }),
      fc.array(fc.record({ kind: fc.constantFrom<EdgeKind>('reject', 'timeout', 'fail'), to }), {
        maxLength: 2,
      }),
    ),
  });
  return fc
    .array(step, { minLength: size, maxLength: size })
    .map((steps) =>
      steps.map((value): RandomStep => ({ ...value, edges: [value.edges[0], ...value.edges[1]] })),
    );
});

const idOf = (to: number | string): string => (typeof to === 'number' ? `s${to}` : to);

function toGraph(steps: readonly RandomStep[]): FlowGraph {
  const map = new Map<string, FlowStep>();
  steps.forEach((step, index) => {
    const id = `s${index}`;
    map.set(id, {
      id,
      kind: step.approval ? 'approval' : 'handoff',
      title: id,
      stage: 'main',
      party: undefined,
      definition: {
        ...(step.registers ? { compensate: 'release' } : {}),
        ...(step.pivot ? { pivot: true } : {}),
      } as never,
      waits: true,
      outgoing: step.edges.map((edge) => ({ from: id, to: idOf(edge.to), kind: edge.kind })),
    });
  });
  const order = steps.map((_, index) => `s${index}`);
  return {
    start: 's0',
    stages: [{ id: 'main', title: 'Main', steps: order }],
    steps: map,
    order,
    compensations: [],
  };
}

/**
 * Brute force: the fewest nodes of a walk (at most `limit` edges) from the hold's
 * placement that keeps it: ends complete, or is cancelled (an ending, or a cancel request
 * at an approval) while no release is registered, without a release or settlement step
 * completing on the way.
 */
function bruteForce(graph: FlowGraph, hold: HoldDefinition, limit: number): number | undefined {
  const ends = new Set([...hold.released_by, ...hold.settled_by]);
  let best: number | undefined;
  const after = (step: FlowStep, live: boolean): boolean => {
    const definition = step.definition as { compensate?: string; pivot?: boolean };
    if (definition.compensate === 'release' && hold.released_by.includes('release')) return true;
    return definition.pivot === true ? false : live;
  };
  const walk = (node: string, live: boolean, nodes: number, edges: number): void => {
    // A walk already as long as the best one found cannot become the shortest.
    if (best !== undefined && nodes >= best) return;
    const keeps =
      node === 'complete' ||
      (!live && (node === 'cancel' || graph.steps.get(node)?.kind === 'approval'));
    if (keeps) {
      if (best === undefined || nodes < best) best = nodes;
      return;
    }
    const step = graph.steps.get(node);
    if (!step || edges === limit) return;
    for (const edge of step.outgoing) {
      if (isCompleting(edge) && ends.has(step.id)) continue;
      walk(edge.to, isCompleting(edge) ? after(step, live) : live, nodes + 1, edges + 1);
    }
  };
  const placing = graph.steps.get(hold.placed_by)!;
  for (const edge of placing.outgoing.filter(isCompleting))
    walk(edge.to, after(placing, false), 2, 1);
  return best;
}

describe('the hold proof agrees with brute-force path enumeration on small graphs', () => {
  it('finds a path keeping the hold exactly when one exists, and the shortest one', () => {
    fc.assert(
      fc.property(
        randomGraph,
        fc.nat(),
        fc.boolean(),
        fc.array(fc.nat(), { maxLength: 2 }),
        (steps, placed, releases, settled) => {
          const graph = toGraph(steps);
          const hold: HoldDefinition = {
            id: 'h',
            description: 'h',
            placed_by: graph.order[placed % graph.order.length]!,
            released_by: releases ? ['release'] : [],
            settled_by: settled.map((index) => graph.order[index % graph.order.length]!),
          };
          const proof = unreleasedPath(graph, hold);
          // Where a walk goes next depends only on its (step, registered) state, so a shortest
          // counterexample visits each of the 2 × steps states at most once: at most
          // 2 × steps + 1 edges. (Deeper bounds only make the enumeration exponentially slower.)
          const brute = bruteForce(graph, hold, 2 * graph.steps.size + 1);
          expect(proof?.path.length).toBe(brute);
        },
      ),
      { numRuns: 300 },
    );
  });
});
