export { loadScenario } from './load-scenario.js';
export { checkUpgrade } from './upgrade/check-upgrade.js';
export type { UpgradeFile, UpgradeReport, UpgradeState } from './upgrade/check-upgrade.js';
export { isMigrationFileName, migrationSchema } from './upgrade/migration-schema.js';
export type { MigrationDefinition } from './upgrade/migration-schema.js';
export type { LoadedScenario, LoadResult, LoadOptions } from './load-scenario.js';
export { compile, safeCompile } from './compile/compile.js';
export type { CompiledScenario, CompileResult, StepResult } from './compile/compile.js';
export { formatProblem, sortProblems, ScenarioError } from './problem.js';
export type { Problem, ProblemCode } from './problem.js';
export { scenarioSchema, FAMILIES, ASSET_TRACKS } from './schema/scenario-schema.js';
export type {
  ScenarioDefinition,
  StageDefinition,
  PolicyRule,
  ControlDefinition,
  Family,
  AssetTrack,
} from './schema/scenario-schema.js';
export {
  invariantSchema,
  precedenceInvariantSchema,
  exclusionInvariantSchema,
  responseInvariantSchema,
  approvalInvariantSchema,
  INVARIANT_KIND_FIELDS,
  invariantKind,
  invariantStepLists,
  isPrecedenceInvariant,
} from './schema/invariant-schema.js';
export type {
  InvariantDefinition,
  InvariantKind,
  PrecedenceInvariant,
  ExclusionInvariant,
  ResponseInvariant,
  ApprovalInvariant,
} from './schema/invariant-schema.js';
export { legSchema, LEG_DIRECTIONS } from './schema/leg-schema.js';
export type { LegDefinition, LegDirection } from './schema/leg-schema.js';
export { holdSchema } from './schema/hold-schema.js';
export type { HoldDefinition } from './schema/hold-schema.js';
export { evaluateLeg, legMovements, LegEvaluationError } from './legs/leg-movements.js';
export type { LegMovement } from './legs/leg-movements.js';
export { legBalances } from './legs/leg-balances.js';
export type { LegBalance } from './legs/leg-balances.js';
export type {
  StepDefinition,
  StepKind,
  CheckStep,
  ApprovalStep,
  HandoffStep,
  RecordStep,
  RouteStep,
  RouteAlternative,
  WaitStep,
  CompensationStep,
} from './schema/step-schema.js';
export { PARTY_ROLES } from './schema/party-schema.js';
export type { PartyDefinition } from './schema/party-schema.js';
export { scenarioJsonSchema, SCENARIO_SCHEMA_ID } from './schema/json-schema.js';
export { buildFlowGraph, findPath, describePath, isCompleting } from './graph/flow-graph.js';
export type { FlowGraph, FlowStep, FlowEdge, EdgeKind, FlowPath } from './graph/flow-graph.js';
export { Money, MoneyError, toMinorUnits, fromMinorUnits, compareDecimal } from './money/money.js';
export { compileInputSchema, InputSchemaError } from './inputs/input-validator.js';
export type { InputIssue, InputValidator } from './inputs/input-validator.js';
export { INPUT_FORMATS } from './inputs/formats.js';
export type { InputFormat } from './inputs/formats.js';
export {
  isChecksummedEvmAddress,
  isSolanaAddress,
  toEip55Checksum,
} from './inputs/address-formats.js';
export { isIban, isBic } from './inputs/bank-formats.js';
export { parseDuration, addDuration } from './schema/duration.js';
export { ExpressionEvaluator } from './compile/expression-evaluator.js';
export type { Evaluation, EvaluationFailure } from './compile/expression-evaluator.js';
export { EXPRESSION_BUDGET } from './expressions/evaluation-budget.js';
export { initialRunContext } from './compile/run-context.js';
export type {
  RunContext,
  RunEvent,
  RunInput,
  RunEnvironment,
  RunEnding,
  EmittedFact,
  ApprovalDecision,
  HandoffOutcome,
  SignalSender,
  RuleOutcome,
  CheckOutcome,
  RouteSelection,
  ConsideredAlternative,
  StepProgress,
} from './compile/run-context.js';
export { FINAL_RUN_STATUSES } from './compile/run-state.js';
export type {
  PersistedSnapshot,
  PersistedStateValue,
  RunState,
  Awaiting,
  FinalRunStatus,
} from './compile/run-state.js';
export type { PolicyState, PolicyRuleState, ControlState } from './compile/policy-state.js';
export { scenarioMermaid } from './diagram/mermaid.js';
export { scenarioSvg } from './diagram/svg.js';
export { diagramModel } from './diagram/diagram-model.js';
export type {
  DiagramSource,
  DiagramModel,
  DiagramNode,
  DiagramCluster,
  DiagramEdge,
  DiagramEdgeStyle,
  DiagramEnding,
} from './diagram/diagram-model.js';
