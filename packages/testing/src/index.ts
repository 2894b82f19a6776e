import fc from 'fast-check';

export { fc };
export { inputsArbitrary, valueArbitrary } from './inputs-arbitrary.js';
export { FORMAT_ARBITRARIES } from './format-arbitraries.js';
export { signalPlanArbitrary } from './signal-plan.js';
export type { PlanAction, SignalPlan } from './signal-plan.js';
export { runTrace, happyPathPlan } from './run-trace.js';
export type { Trace } from './run-trace.js';
export { traceViolations } from './trace-checks.js';
export {
  formatGoldenSequence,
  goldenEvents,
  goldenPlan,
  HAPPY_GOLDEN_PATH,
} from './golden-events.js';
export type { GoldenPath, GoldenSequence, GoldenStatus, GoldenStep } from './golden-events.js';
