// The directed cases a check runs: the fewest of those the search found that still take
// every edge the search reached.
import type { DirectedCase } from './explore-edges.js';

/**
 * The fewest of `found` (greedily) that together take every edge they took, each naming
 * the edges it is kept for, in the order found: a deep trace found late often takes what
 * several early, shallow ones took first.
 */
export function fewestCases(
  found: readonly DirectedCase[],
  takenBy: readonly ReadonlySet<string>[],
): DirectedCase[] {
  const uncovered = new Set(found.flatMap((found) => found.edges));
  const chosen = new Map<number, string[]>();
  while (uncovered.size > 0) {
    let best = -1;
    let bestCount = 0;
    takenBy.forEach((taken, index) => {
      const count = [...taken].filter((edge) => uncovered.has(edge)).length;
      if (count > bestCount) [best, bestCount] = [index, count];
    });
    const edges = [...takenBy[best]!].filter((edge) => uncovered.has(edge));
    for (const edge of edges) uncovered.delete(edge);
    chosen.set(best, edges);
  }
  return [...chosen.keys()]
    .sort((left, right) => left - right)
    .map((index) => ({ ...found[index]!, edges: chosen.get(index)! }));
}
