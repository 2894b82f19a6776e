import type { JsonObject } from '@programrun/evidence';

/** Environment a run executes in; test runs talk to simulated counterparties. */
export type RunEnvironment = 'test' | 'live';

/**
 * Who sent a signal, as the host authenticated them: the actor (a person or system, e.g.
 * `ops:alice`) and the credential used (an API key id `key_…`, never a secret).
 */
export interface SignalSender {
  readonly actor: string;
  readonly credential_id: string;
}

/** One recorded approval decision. */
export interface ApprovalDecision {
  /**
   * Who decided, as authenticated (the HTTP layer passes the caller's actor, never a
   * request field): quorum and maker-checker count distinct approvers.
   */
  readonly approver: string;
  readonly decision: 'approve' | 'reject';
  readonly note: string | null;
  readonly at: string;
  /** The credential the decision came with; absent when the host gave none. */
  readonly credential_id?: string;
  /** How the decider named themselves (free text): recorded for people, never counted. */
  readonly label?: string;
}

/** The partner's answer to a handoff. */
export interface HandoffOutcome {
  readonly outcome: 'confirmed' | 'rejected' | 'failed';
  readonly reference: string;
  readonly data: JsonObject;
  readonly at: string;
  /** Who answered; absent for the test environment's simulated partners. */
  readonly answered_by?: SignalSender;
}

/** Outcome of one policy rule. */
export interface RuleOutcome {
  readonly id: string;
  readonly outcome: 'pass' | 'fail' | 'error';
  readonly effect: 'deny' | 'review';
  readonly message: string | null;
}

/** A check step's evaluation. */
export interface CheckOutcome {
  readonly decision: 'allow' | 'review' | 'deny';
  readonly rules: readonly RuleOutcome[];
  /** Set when reviewers decided a `review` outcome. */
  readonly review: 'approved' | 'rejected' | null;
}

/** One alternative as a route step weighed it. */
export interface ConsideredAlternative {
  readonly id: string;
  readonly eligible: boolean;
  readonly reason: string;
  readonly error: string | null;
}

/** A route step's choice with the alternatives considered and why. */
export interface RouteSelection {
  readonly selected: string | null;
  readonly reason: string | null;
  readonly alternatives: readonly ConsideredAlternative[];
}

/** How a finished step ended. */
export type StepProgress = 'completed' | 'failed' | 'skipped';

/** How a run ended when it did not complete. */
export interface RunEnding {
  readonly status: 'faulted' | 'cancelled';
  readonly step: string | null;
  readonly reason: string;
  readonly message: string | null;
}

/**
 * The machine's context: everything a run has decided so far, plain JSON so it can be
 * stored and restored with `machine.resolveState({ value, context })`.
 */
export interface RunContext {
  readonly environment: RunEnvironment;
  readonly inputs: JsonObject;
  readonly routes: Readonly<Record<string, string>>;
  readonly route_selections: Readonly<Record<string, RouteSelection>>;
  readonly records: Readonly<Record<string, JsonObject>>;
  readonly checks: Readonly<Record<string, CheckOutcome>>;
  /** Decisions of the current attempt of each approval (or check review) step. */
  readonly approvals: Readonly<Record<string, readonly ApprovalDecision[]>>;
  readonly handoffs: Readonly<Record<string, HandoffOutcome>>;
  /** How many times each waiting step has been entered; timers carry the attempt. */
  readonly attempts: Readonly<Record<string, number>>;
  /** How each step that has finished ended. */
  readonly progress: Readonly<Record<string, StepProgress>>;
  /** Compensation step ids to run, last one first. */
  readonly compensation_stack: readonly string[];
  readonly ending: RunEnding | null;
}

/** What the engine passes when a run starts. */
export interface RunInput {
  readonly environment: RunEnvironment;
  readonly inputs: JsonObject;
}

/** Signals the machine accepts. `at` is the engine clock's ISO time. */
export type RunEvent =
  | {
      readonly type: 'approval.decision';
      readonly step: string;
      readonly decision: 'approve' | 'reject';
      /** Who decided, as authenticated; quorum and maker-checker count distinct approvers. */
      readonly approver: string;
      readonly note?: string | undefined;
      /** The credential the decision came with. */
      readonly credential_id?: string | undefined;
      /** A display name given with the decision; recorded, never counted. */
      readonly label?: string | undefined;
      readonly at: string;
    }
  | {
      readonly type: 'handoff.outcome';
      readonly step: string;
      readonly outcome: 'confirmed' | 'rejected' | 'failed';
      readonly reference: string;
      readonly data?: JsonObject | undefined;
      /** The attempt answered; when set it must be the step's current attempt. */
      readonly attempt?: number | undefined;
      /** Who answered, as authenticated. */
      readonly answered_by?: SignalSender | undefined;
      readonly at: string;
    }
  | {
      readonly type: 'timer.fired';
      readonly step: string;
      readonly attempt: number;
      readonly at: string;
    }
  | { readonly type: 'run.cancel'; readonly reason: string; readonly at: string };

/** A lifecycle fact the machine emits; the engine records it as `program_run.<type>`. */
export interface EmittedFact {
  readonly type: string;
  readonly stage: string | null;
  readonly step: string | null;
  readonly data: JsonObject;
}

/**
 * The context of a run before its first step.
 *
 * @example
 * ```ts
 * initialRunContext({ environment: 'test', inputs: { amount: '10.00' } }).routes; // {}
 * ```
 */
export function initialRunContext(input: RunInput): RunContext {
  return {
    environment: input.environment,
    inputs: input.inputs,
    routes: {},
    route_selections: {},
    records: {},
    checks: {},
    approvals: {},
    handoffs: {},
    attempts: {},
    progress: {},
    compensation_stack: [],
    ending: null,
  };
}
