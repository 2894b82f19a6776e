import type { CompiledScenario } from '@programrun/dsl';
import type { LifecycleRecord } from '@programrun/engine';
import { scenarioEdges, type ScenarioEdge } from './scenario-edges.js';
import { traceEdges } from './trace-edges.js';

/** One edge and how many traces took it. */
export interface EdgeHits {
  readonly edge: ScenarioEdge;
  readonly hits: number;
}

/** Which of a scenario's edges the checked traces took. */
export interface CoverageReport {
  /** Every edge in `scenarioEdges` order, with its hit count. */
  readonly edges: readonly EdgeHits[];
  /** Edges taken at least once. */
  readonly covered: number;
  readonly total: number;
}

/** Counts, trace by trace, the edges of one scenario the traces take. */
export interface EdgeCoverage {
  /** Counts the edges one trace's records show taken. */
  add(records: readonly LifecycleRecord[]): void;
  report(): CoverageReport;
}

/**
 * A coverage count for `compiled`, empty until traces are added.
 *
 * @example
 * ```ts
 * const coverage = createEdgeCoverage(compiled);
 * coverage.add(trace.records);
 * const { covered, total } = coverage.report(); // e.g. 31, 47
 * ```
 */
export function createEdgeCoverage(compiled: CompiledScenario): EdgeCoverage {
  const edges = scenarioEdges(compiled);
  const hits = new Map(edges.map((edge) => [edge.id, 0]));
  return {
    add(records) {
      for (const id of traceEdges(compiled, records)) {
        const count = hits.get(id);
        if (count !== undefined) hits.set(id, count + 1);
      }
    },
    report() {
      const counted = edges.map((edge) => ({ edge, hits: hits.get(edge.id) ?? 0 }));
      return {
        edges: counted,
        covered: counted.filter((entry) => entry.hits > 0).length,
        total: counted.length,
      };
    },
  };
}
