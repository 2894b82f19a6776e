import fc from 'fast-check';

export { fc };
export { inputsArbitrary, valueArbitrary } from './inputs-arbitrary.js';
export { FORMAT_ARBITRARIES } from './format-arbitraries.js';
export { signalPlanArbitrary } from './signal-plan.js';
export type { PlanAction, SignalPlan } from './signal-plan.js';
export { runTrace, happyPathPlan } from './run-trace.js';
export type { Trace } from './run-trace.js';
export { traceViolations } from './trace-checks.js';
