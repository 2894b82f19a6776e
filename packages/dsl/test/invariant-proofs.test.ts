import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { EdgeKind, FlowEdge, FlowGraph, FlowStep } from '../src/index.js';
import { isCompleting } from '../src/index.js';
import { precedenceViolations } from '../src/validate/invariants/precedence-proof.js';
import { exclusionViolations } from '../src/validate/invariants/exclusion-proof.js';
import { responseViolations } from '../src/validate/invariants/response-proof.js';

const ENDINGS = ['complete', 'fault', 'compensate', 'cancel'] as const;
const KINDS: readonly EdgeKind[] = ['success', 'route', 'skip', 'reject', 'timeout', 'fail'];

/** A small random flow graph: every step has at least one completing edge, as real steps do. */
const graphArbitrary = fc.integer({ min: 2, max: 4 }).chain((size) => {
  const steps = Array.from({ length: size }, (_, index) => `s${index}`);
  const target = fc.constantFrom(...steps, ...ENDINGS);
  const edge = fc.record({ kind: fc.constantFrom(...KINDS), to: target });
  const completing = fc.record({ kind: fc.constantFrom<EdgeKind>('success', 'route'), to: target });
  const outgoing = fc.tuple(completing, fc.array(edge, { maxLength: 2 }));
  return fc.tuple(fc.constant(steps), fc.array(outgoing, { minLength: size, maxLength: size }));
});

function toGraph([steps, outgoing]: [
  string[],
  [Omit<FlowEdge, 'from'>, Omit<FlowEdge, 'from'>[]][],
]): FlowGraph {
  const map = new Map<string, FlowStep>();
  steps.forEach((id, index) => {
    const [first, rest] = outgoing[index]!;
    map.set(id, {
      id,
      kind: 'handoff',
      title: id,
      stage: 'main',
      party: undefined,
      definition: {} as never,
      waits: true,
      outgoing: [first, ...rest].map((edge) => ({ ...edge, from: id })),
    });
  });
  return {
    start: steps[0]!,
    stages: [{ id: 'main', title: 'Main', steps }],
    steps: map,
    order: steps,
    compensations: [],
  };
}

/** Every path from the start of at most `limit` edges, as its node and edge sequence. */
function* paths(
  graph: FlowGraph,
  limit: number,
): Generator<{ nodes: string[]; edges: FlowEdge[] }> {
  const nodes = [graph.start];
  const edges: FlowEdge[] = [];
  function* walk(): Generator<{ nodes: string[]; edges: FlowEdge[] }> {
    yield { nodes, edges };
    const current = graph.steps.get(nodes.at(-1)!);
    if (!current || edges.length === limit) return;
    for (const edge of current.outgoing) {
      nodes.push(edge.to);
      edges.push(edge);
      yield* walk();
      nodes.pop();
      edges.pop();
    }
  }
  yield* walk();
}

const limitOf = (graph: FlowGraph): number => 2 * graph.steps.size + 1;

/** Brute force: shortest number of nodes up to entering `then` without `before` completed. */
function brutePrecedence(graph: FlowGraph, before: string, then: string): number | undefined {
  if (before === then) return 1;
  let best: number | undefined;
  for (const { nodes, edges } of paths(graph, limitOf(graph))) {
    if (nodes.at(-1) !== then) continue;
    const completed = edges.some((edge) => edge.from === before && isCompleting(edge));
    if (!completed && (best === undefined || nodes.length < best)) best = nodes.length;
  }
  return best;
}

/** Brute force: shortest number of nodes up to the second of two distinct completions. */
function bruteExclusion(graph: FlowGraph, left: string, right: string): number | undefined {
  let best: number | undefined;
  for (const { edges } of paths(graph, limitOf(graph))) {
    const last = edges.at(-1);
    if (!last || !isCompleting(last) || (last.from !== left && last.from !== right)) continue;
    const other = last.from === left ? right : left;
    const earlier = edges.slice(0, -1).some((edge) => edge.from === other && isCompleting(edge));
    if (earlier && (best === undefined || edges.length < best)) best = edges.length;
  }
  return best;
}

/** Brute force: shortest number of nodes from an `after` completion to `complete` without an `eventually` completion. */
function bruteResponse(
  graph: FlowGraph,
  after: string,
  eventually: readonly string[],
): number | undefined {
  let best: number | undefined;
  for (const { nodes, edges } of paths(graph, limitOf(graph))) {
    if (nodes.at(-1) !== 'complete') continue;
    edges.forEach((edge, index) => {
      if (edge.from !== after || !isCompleting(edge)) return;
      const later = edges.slice(index + 1);
      if (later.some((next) => eventually.includes(next.from) && isCompleting(next))) return;
      const length = edges.length - index + 1;
      if (best === undefined || length < best) best = length;
    });
  }
  return best;
}

const shortest = (violations: readonly { path: readonly unknown[] }[]): number | undefined =>
  violations.length === 0
    ? undefined
    : Math.min(...violations.map((violation) => violation.path.length));

const settings = { numRuns: 150 };

describe('invariant proofs agree with brute-force path enumeration on small graphs', () => {
  it('precedence: a violation exactly when a path starts `then` before `before` completed, with the shortest path', () => {
    fc.assert(
      fc.property(graphArbitrary, fc.nat(), fc.nat(), (shape, i, j) => {
        const graph = toGraph(shape);
        const before = graph.order[i % graph.order.length]!;
        const then = graph.order[j % graph.order.length]!;
        const proof = precedenceViolations(graph, {
          id: 'p',
          description: 'p',
          before: [before],
          then: [then],
        });
        expect(shortest(proof)).toBe(brutePrecedence(graph, before, then));
      }),
      settings,
    );
  });

  it('exclusion: a violation exactly when some path completes both steps, with the shortest path', () => {
    fc.assert(
      fc.property(graphArbitrary, fc.nat(), fc.nat(), (shape, i, j) => {
        const graph = toGraph(shape);
        const left = graph.order[i % graph.order.length]!;
        const right = graph.order[j % graph.order.length]!;
        fc.pre(left !== right);
        const proof = exclusionViolations(graph, {
          id: 'x',
          description: 'x',
          never_together: [left, right],
        });
        expect(shortest(proof)).toBe(bruteExclusion(graph, left, right));
        for (const violation of proof)
          expect(violation.path[0]).toEqual({ step: graph.start, via: 'start' });
      }),
      settings,
    );
  });

  it('response: a violation exactly when a completed run skips every `eventually` after `after`, with the shortest path', () => {
    fc.assert(
      fc.property(
        graphArbitrary,
        fc.nat(),
        fc.uniqueArray(fc.nat(), { minLength: 1, maxLength: 2 }),
        (shape, i, js) => {
          const graph = toGraph(shape);
          const after = graph.order[i % graph.order.length]!;
          const eventually = [...new Set(js.map((j) => graph.order[j % graph.order.length]!))];
          const proof = responseViolations(graph, {
            id: 'r',
            description: 'r',
            after: [after],
            eventually,
          });
          expect(shortest(proof)).toBe(bruteResponse(graph, after, eventually));
          for (const violation of proof) {
            expect(violation.path[0]).toEqual({ step: after, via: 'start' });
            expect(violation.path.at(-1)?.step).toBe('complete');
          }
        },
      ),
      settings,
    );
  });
});
