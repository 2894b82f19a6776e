import type { CompiledScenario } from '@programrun/dsl';
import type { LifecycleRecord } from '@programrun/engine';
import { scenarioEdges, type ScenarioEdge } from './scenario-edges.js';
import { traceEdges } from './trace-edges.js';

/** One edge and how many traces took it. */
export interface EdgeHits {
  readonly edge: ScenarioEdge;
  readonly hits: number;
  /** Why no run can take it, when that is known (e.g. no valid input found); else absent. */
  readonly unreachable?: string;
  /**
   * Why no run selects it, for a route alternative no valid input selects (an alternative
   * before it takes every input it would): dead flow, which a check reports as a fault.
   */
  readonly dead?: string;
}

/** Which of a scenario's edges the checked traces took. */
export interface CoverageReport {
  /** Every edge in `scenarioEdges` order, with its hit count. */
  readonly edges: readonly EdgeHits[];
  /** Edges taken at least once. */
  readonly covered: number;
  readonly total: number;
  /** Edges not known to be unreachable: the ones a check should take. */
  readonly reachable: number;
  /** Reachable edges no trace took, by id: what the check left unexercised. */
  readonly missed: readonly string[];
  /** Route alternatives no valid input selects, by id (see {@link EdgeHits.dead}). */
  readonly dead: readonly string[];
}

/** Counts, trace by trace, the edges of one scenario the traces take. */
export interface EdgeCoverage {
  /** Counts the edges one trace's records show taken. */
  add(records: readonly LifecycleRecord[]): void;
  report(): CoverageReport;
}

/**
 * A coverage count for `compiled`, empty until traces are added. Edges in
 * `unreachable` that no trace took are reported with their reason and not counted as
 * missed; route alternatives in `dead` that no trace took are reported with theirs as dead.
 *
 * @example
 * ```ts
 * const coverage = createEdgeCoverage(compiled);
 * coverage.add(trace.records);
 * const { covered, total } = coverage.report(); // e.g. 31, 47
 * ```
 */
export function createEdgeCoverage(
  compiled: CompiledScenario,
  options: {
    /** Edges known to be unreachable, by id, with the reason. */
    readonly unreachable?: ReadonlyMap<string, string>;
    /** Route alternatives no valid input selects, by id, with the reason. */
    readonly dead?: ReadonlyMap<string, string>;
  } = {},
): EdgeCoverage {
  const edges = scenarioEdges(compiled);
  const unreachable = options.unreachable ?? new Map<string, string>();
  const dead = options.dead ?? new Map<string, string>();
  const hits = new Map(edges.map((edge) => [edge.id, 0]));
  return {
    add(records) {
      for (const id of traceEdges(compiled, records)) {
        const count = hits.get(id);
        if (count !== undefined) hits.set(id, count + 1);
      }
    },
    report() {
      const counted = edges.map((edge): EdgeHits => {
        const count = hits.get(edge.id) ?? 0;
        const reason = count === 0 ? unreachable.get(edge.id) : undefined;
        const never = count === 0 ? dead.get(edge.id) : undefined;
        return {
          edge,
          hits: count,
          ...(reason === undefined ? {} : { unreachable: reason }),
          ...(never === undefined ? {} : { dead: never }),
        };
      });
      return {
        edges: counted,
        covered: counted.filter((entry) => entry.hits > 0).length,
        total: counted.length,
        reachable: counted.filter(
          (entry) => entry.unreachable === undefined && entry.dead === undefined,
        ).length,
        missed: counted
          .filter(
            (entry) =>
              entry.hits === 0 && entry.unreachable === undefined && entry.dead === undefined,
          )
          .map((entry) => entry.edge.id),
        dead: counted.filter((entry) => entry.dead !== undefined).map((entry) => entry.edge.id),
      };
    },
  };
}
