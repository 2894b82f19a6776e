import fc from 'fast-check';

export { fc };
export { inputsArbitrary, valueArbitrary } from './inputs-arbitrary.js';
export { invalidInputsArbitrary } from './invalid-inputs-arbitrary.js';
export type { NearMissInputs } from './invalid-inputs-arbitrary.js';
export { FORMAT_ARBITRARIES } from './format-arbitraries.js';
export { FORMAT_NEAR_MISSES, wrongTypeValues } from './near-miss-values.js';
export type { NearMissValue } from './near-miss-values.js';
export { signalPlanArbitrary } from './signal-plan.js';
export type { PartnerOutcome, PlanAction, SignalPlan } from './signal-plan.js';
export { lateAnswer, outOfOrderAnswer, requestedHandoff } from './partner-answers.js';
export type { RequestedHandoff } from './partner-answers.js';
export { runTrace, happyPathPlan } from './run-trace.js';
export type { RunTraceOptions, Trace, TraceUpgrade } from './run-trace.js';
export { timelineRecord } from './timeline.js';
export type { TimelineEntry, TimelineRecord } from './timeline.js';
export { formatTimeline } from './format-timeline.js';
export { chainViolations, traceViolations } from './trace-checks.js';
export { completesStep, startsStep } from './step-completion.js';
export { invariantViolations } from './invariant-checks.js';
export { terminationBound, terminationViolations } from './termination.js';
export { stuckStateViolations } from './stuck-states.js';
export { staleAnswerViolations } from './stale-answers.js';
export { determinismViolations } from './determinism.js';
export { evidenceViolations } from './evidence-check.js';
export {
  declaredLegs,
  localLegMovements,
  moneyConservationViolations,
} from './money-conservation.js';
export type { LegMovement, LegMovementsOf, MoneyLeg } from './money-conservation.js';
export { checkScenario } from './check-scenario.js';
export { createScenarioChecker } from './scenario-checker.js';
export type { ScenarioChecker, TraceCase } from './scenario-checker.js';
export {
  DEFAULT_NUM_RUNS,
  MAX_DIRECTED_CASES,
  PROPERTY_NAMES,
  assertCheckOptions,
  resolveNumRuns,
  selectProperties,
} from './check-options.js';
export type { CheckOptions, PropertyName } from './check-options.js';
export { PROPERTY_DESCRIPTIONS, TRACE_CHECKS } from './check-properties.js';
export type { TraceCheck } from './check-properties.js';
export { replayLines } from './check-report.js';
export type { CheckReport, PropertyFailure, PropertyResult } from './check-report.js';
export { formatCheckReport, formatCoverage, formatPropertyFailure } from './format-check-report.js';
export { createEdgeCoverage } from './edge-coverage.js';
export type { CoverageReport, EdgeCoverage, EdgeHits } from './edge-coverage.js';
export {
  attemptEdgeId,
  compensationEdgeId,
  flowEdgeId,
  ruleEdgeId,
  scenarioEdges,
} from './scenario-edges.js';
export type { ScenarioEdge, ScenarioEdgeKind } from './scenario-edges.js';
export { traceEdges } from './trace-edges.js';
export { exploreEdges } from './explore-edges.js';
export type { DirectedCase, ExploreOptions } from './explore-edges.js';
export { gateReads } from './gate-reads.js';
export type { GateReads } from './gate-reads.js';
export { answerDataChanges, changeAnswerData } from './answer-data.js';
export type { AnswerDataChange } from './answer-data.js';
export { boundaryAmounts, boundaryInputs, boundaryLengths } from './boundary-inputs.js';
export { inputGates, INPUT_SAMPLES } from './input-gates.js';
export type { InputGates } from './input-gates.js';
export { scenarioSuite } from './scenario-suite.js';
export type { ScenarioSuiteOptions } from './scenario-suite.js';
export { loadCompiledScenario } from './load-compiled.js';
export { CheckError } from './check-error.js';
export type { CheckErrorCode } from './check-error.js';
export {
  formatGoldenSequence,
  goldenEvents,
  goldenPlan,
  HAPPY_GOLDEN_PATH,
} from './golden-events.js';
export type { GoldenPath, GoldenSequence, GoldenStatus, GoldenStep } from './golden-events.js';
export { recordsUnderCurrentIds } from './upgraded-records.js';
