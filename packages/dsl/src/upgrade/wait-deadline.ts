import type { LoadedScenario } from '../load-scenario.js';

/** The deadline a waiting step sets: which timer, and how long after the wait starts. */
export interface WaitDeadline {
  /** The timer's kind: an approval's or review's `expiry`, a handoff's `timeout`, a `wait`. */
  readonly kind: 'expiry' | 'timeout' | 'wait';
  /** The ISO 8601 duration (`PT8H`). */
  readonly duration: string;
}

/**
 * The deadline a step a run can wait at sets: an approval's `expires`, a check review's
 * `review.expires`, a handoff's `timeout`, a wait's `duration`; null for any other step.
 */
export function waitDeadline(scenario: LoadedScenario, step: string): WaitDeadline | null {
  const definition = scenario.graph.steps.get(step)?.definition;
  switch (definition?.kind) {
    case 'approval':
      return { kind: 'expiry', duration: definition.expires };
    case 'check':
      return definition.review ? { kind: 'expiry', duration: definition.review.expires } : null;
    case 'handoff':
      return { kind: 'timeout', duration: definition.timeout };
    case 'wait':
      return { kind: 'wait', duration: definition.duration };
    default:
      return null;
  }
}
