import type { CompiledScenario } from '@programrun/dsl';
import type { Jwks } from '@programrun/evidence';
import type { PropertyName } from './check-options.js';
import { evidenceViolations } from './evidence-check.js';
import { invariantViolations } from './invariant-checks.js';
import { moneyConservationViolations } from './money-conservation.js';
import type { Trace } from './run-trace.js';
import { staleAnswerViolations } from './stale-answers.js';
import { stuckStateViolations } from './stuck-states.js';
import { terminationViolations } from './termination.js';
import { recordsUnderCurrentIds } from './upgraded-records.js';

/**
 * What each property promises, in a sentence.
 *
 * @example
 * ```ts
 * PROPERTY_DESCRIPTIONS.termination; // 'letting deadlines lapse after the plan, …'
 * ```
 */
export const PROPERTY_DESCRIPTIONS: Readonly<Record<PropertyName, string>> = {
  'inputs-valid':
    "every generated input passes the scenario's validator and the engine creates a run from it",
  'near-miss-refused':
    'every near-miss input (one field broken) is refused by the validator at that field and by the engine with invalid_inputs',
  determinism:
    'the same inputs, plan and seed give byte-identical lifecycle records, chain head, evidence and outcomes (for every run that ends; one that does not is a termination failure)',
  termination:
    'letting deadlines lapse after the plan, the run reaches a final status within the bound',
  'no-stuck-states':
    'every non-final state is an explained wait (a deadline and a pending timer), and a lapsing deadline moves the run',
  invariants: 'every declared invariant (precedence, exclusion, response) holds on every trace',
  'stale-answers-refused':
    'late and out-of-order partner answers are never applied, and refused or duplicate signals change nothing',
  'money-conservation':
    'on every finished trace, per currency, the moved debit legs equal the moved credit legs',
  evidence:
    'the hash chain verifies up to the chain head, a final history is sealed once, and the signed DSSE evidence bundle verifies offline',
};

/** A property judged on one trace: its violations, empty when it holds. */
export type TraceCheck = (compiled: CompiledScenario, trace: Trace, jwks: Jwks) => string[];

/**
 * The check of each property judged on a single trace (every property but
 * `inputs-valid`, `near-miss-refused` and `determinism`). Invariants and termination read
 * an upgraded run's records with each step under its current id (`recordsUnderCurrentIds`);
 * the evidence check reads them as signed.
 *
 * @example
 * ```ts
 * TRACE_CHECKS.invariants!(compiled, trace, keys.publicJwks()); // []
 * ```
 */
export const TRACE_CHECKS: Readonly<Partial<Record<PropertyName, TraceCheck>>> = {
  termination: (compiled, trace) =>
    terminationViolations(compiled, { ...trace, records: recordsUnderCurrentIds(trace.records) }),
  'no-stuck-states': (_compiled, trace) => stuckStateViolations(trace),
  invariants: (compiled, trace) =>
    invariantViolations(compiled, recordsUnderCurrentIds(trace.records), trace.run.status),
  'stale-answers-refused': (_compiled, trace) => staleAnswerViolations(trace),
  'money-conservation': (compiled, trace) => moneyConservationViolations(compiled, trace),
  evidence: (_compiled, trace, jwks) => evidenceViolations(trace, jwks),
};
