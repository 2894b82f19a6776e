import type { FlowPath } from '../../graph/flow-graph.js';

/** One way a path breaks an invariant: the message and the shortest counterexample. */
export interface InvariantViolation {
  readonly message: string;
  readonly path: FlowPath;
}
