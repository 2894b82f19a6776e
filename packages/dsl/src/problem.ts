import { ProgramrunError } from '@programrun/evidence';

/**
 * Stable codes of scenario problems, documented in docs/guides/writing-scenarios.md (the
 * `upgrade_*` codes of migrations in docs/guides/upgrading-scenarios.md).
 */
export type ProblemCode =
  | 'yaml_syntax'
  | 'duplicate_key'
  | 'missing_field'
  | 'unknown_field'
  | 'invalid_value'
  | 'file_name_mismatch'
  | 'duplicate_id'
  | 'unknown_party'
  | 'invalid_party_kind'
  | 'dangling_reference'
  | 'unreachable_step'
  | 'infinite_loop'
  | 'invalid_expression'
  | 'unsupported_regex'
  | 'expression_budget_exceeded'
  | 'unbounded_expression'
  | 'invalid_input_schema'
  | 'invalid_example_inputs'
  | 'review_required'
  | 'invalid_compensation'
  | 'invariant_unknown_step'
  | 'invariant_violated'
  | 'leg_unknown_step'
  | 'hold_unknown_step'
  | 'hold_not_released'
  | 'no_scenarios'
  | 'upgrade_unknown_step'
  | 'upgrade_unmapped_state'
  | 'upgrade_state_mismatch'
  | 'upgrade_rerequests_handoff'
  | 'upgrade_compensation_removed'
  | 'upgrade_posted_legs_changed'
  | 'upgrade_missing_data'
  | 'upgrade_unknown_input'
  | 'upgrade_unknown_party'
  | 'upgrade_deadline_shortened'
  | 'upgrade_invariant_violated';

/**
 * One problem in a scenario file, as data. `line` and `column` are 1-based; both are 0 for a
 * problem of a whole directory (`no_scenarios`).
 */
export interface Problem {
  readonly code: ProblemCode;
  readonly message: string;
  /** Path into the YAML document, e.g. `['stages', 0, 'steps', 2, 'party']`. */
  readonly path: readonly (string | number)[];
  readonly line: number;
  readonly column: number;
  /** File name when loaded from a file. */
  readonly file?: string;
}

/**
 * `file:line:column: code message`, the form editors and CI annotate.
 *
 * @example
 * ```ts
 * formatProblem(problem); // 'scenarios/x@v1.yaml:12:15: unknown_party step "pay" names party "bnak"'
 * ```
 */
export function formatProblem(problem: Problem): string {
  const file = problem.file ?? '<scenario>';
  const where = problem.line === 0 ? file : `${file}:${problem.line}:${problem.column}`;
  return `${where}: ${problem.code} ${problem.message}`;
}

/**
 * Thrown by `compile()` when a scenario has problems; holds every one of them.
 *
 * @example
 * ```ts
 * try { compile(text); } catch (error) {
 *   if (error instanceof ScenarioError) error.problems.forEach((p) => console.log(formatProblem(p)));
 * }
 * ```
 */
export class ScenarioError extends ProgramrunError {
  readonly problems: readonly Problem[];

  constructor(problems: readonly Problem[]) {
    const lines = problems.slice(0, 20).map(formatProblem);
    const more = problems.length > 20 ? `\n… and ${problems.length - 20} more` : '';
    super(
      'scenario_invalid',
      `Scenario has ${problems.length} problem(s):\n${lines.join('\n')}${more}`,
    );
    this.problems = problems;
  }
}

/**
 * Sorts problems by position so they read top to bottom, like a compiler's output.
 *
 * @example
 * ```ts
 * sortProblems(result.problems).map(formatProblem);
 * ```
 */
export function sortProblems(problems: readonly Problem[]): Problem[] {
  return [...problems].sort(
    (a, b) => a.line - b.line || a.column - b.column || a.code.localeCompare(b.code),
  );
}
