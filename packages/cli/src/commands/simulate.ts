import { readFile } from 'node:fs/promises';
import type { CompiledScenario } from '@programrun/dsl';
import { CommandFailure } from '../command.js';
import {
  integerOption,
  listOption,
  parseOptions,
  stringOption,
  type OptionValues,
} from '../parse-options.js';
import { compileFile } from '../scenarios/scenario-files.js';
import { jsonPositions, syntaxErrorPosition } from '../simulate/json-positions.js';
import { simulateRun } from '../simulate/simulate-run.js';
import { formatOutcome, formatTimeline } from '../simulate/timeline.js';
import { UsageError } from '../usage-error.js';
import { formatDiagnostic, formatOption, type Diagnostic } from './validate.js';
import { EXIT, type Output } from './verify.js';

const USAGE =
  'usage: programrun simulate <scenario.yaml> [--inputs <file.json>] [--reject <step>]… [--fail <step>]… [--seed N] [--format text|json]';

/** The run inputs: the JSON file's object, or the diagnostics of what is wrong with it. */
type InputsResult =
  | { readonly ok: true; readonly inputs: Readonly<Record<string, unknown>> }
  | { readonly ok: false; readonly diagnostics: readonly Diagnostic[] };

const diagnostic = (
  file: string,
  position: { line: number; column: number },
  code: string,
  message: string,
): Diagnostic => ({ file, ...position, code, message, severity: 'error' });

/** `/beneficiary/iban` → `beneficiary.iban` (`inputs` for the root). */
const fieldName = (pointer: string): string =>
  pointer === ''
    ? 'inputs'
    : pointer
        .slice(1)
        .split('/')
        .map((token) => token.replace(/~1/g, '/').replace(/~0/g, '~'))
        .join('.');

/** Reads `--inputs` and checks it against the scenario's input schema. */
async function readInputs(file: string, compiled: CompiledScenario): Promise<InputsResult> {
  const text = await readFile(file, 'utf8').catch(() => {
    throw new UsageError(`cannot read the inputs file ${file}`);
  });
  let inputs: unknown;
  try {
    inputs = JSON.parse(text);
  } catch (error) {
    const reason = error instanceof Error ? error.message.split('\n')[0]! : String(error);
    return {
      ok: false,
      diagnostics: [
        diagnostic(file, syntaxErrorPosition(text, error), 'json_syntax', `not JSON: ${reason}`),
      ],
    };
  }
  const issues = compiled.inputs.validate(inputs);
  if (issues.length === 0) return { ok: true, inputs: inputs as Record<string, unknown> };
  const positions = jsonPositions(text);
  const parentOf = (pointer: string) => pointer.slice(0, pointer.lastIndexOf('/'));
  return {
    ok: false,
    diagnostics: issues
      .map((issue) => {
        const position =
          issue.code === 'missing_input'
            ? positions.values.get(parentOf(issue.pointer))
            : issue.code === 'unknown_input'
              ? positions.keys.get(issue.pointer)
              : positions.values.get(issue.pointer);
        return diagnostic(
          file,
          position ?? { line: 1, column: 1 },
          issue.code,
          `${fieldName(issue.pointer)} ${issue.message}`,
        );
      })
      .sort((a, b) => a.line - b.line || a.column - b.column || (a.code < b.code ? -1 : 1)),
  };
}

/** The steps `--reject` and `--fail` may name. */
function checkSteps(compiled: CompiledScenario, values: OptionValues) {
  const decidable: string[] = [];
  const handoffs: string[] = [];
  const steps = [
    ...[...compiled.graph.steps.values()].map((step) => step.definition),
    ...compiled.definition.compensations,
  ];
  for (const step of steps) {
    if (step.kind === 'approval' || (step.kind === 'check' && step.review)) decidable.push(step.id);
    if (step.kind === 'handoff') handoffs.push(step.id);
  }
  const reject = listOption(values, 'reject');
  const fail = listOption(values, 'fail');
  for (const [option, named, allowed, what] of [
    ['reject', reject, decidable, 'an approval step or a check with a review'],
    ['fail', fail, handoffs, 'a handoff step'],
  ] as const) {
    for (const step of named) {
      if (!allowed.includes(step))
        throw new UsageError(
          `--${option} ${step}: not ${what} of ${compiled.id} (${allowed.join(', ') || 'it has none'})`,
        );
    }
  }
  return { reject: new Set(reject), fail: new Set(fail) };
}

/**
 * `programrun simulate <scenario.yaml>`: runs the scenario once in the test environment
 * (real engine, memory store, virtual clock, seeded ids, simulated partners) approving
 * every approval except `--reject` steps and failing `--fail` handoffs, then prints the
 * timeline, the final status and the hash-chain head (`--format json`: the lifecycle
 * records). Exits 0 when the run completes, 1 when it does not or the inputs are invalid.
 *
 * @example
 * ```ts
 * await simulateCommand(['scenarios/wallet-delivery@v1.yaml', '--reject', 'release_approval'], output);
 * ```
 */
export async function simulateCommand(argv: readonly string[], output: Output): Promise<number> {
  const { values, positionals } = parseOptions(argv, {
    inputs: { type: 'string' },
    reject: { type: 'string', multiple: true },
    fail: { type: 'string', multiple: true },
    seed: { type: 'string' },
    format: { type: 'string' },
    help: { type: 'boolean' },
  });
  if (values.help) {
    output.out(USAGE);
    return EXIT.ok;
  }
  if (positionals.length !== 1) throw new UsageError(USAGE);
  const format = formatOption(values.format, ['text', 'json']);
  const seed = integerOption(values, 'seed', { min: 0, max: 2 ** 32 - 1, fallback: 0 });
  const file = positionals[0]!;
  const compiled = await compileFile(file);
  const { reject, fail } = checkSteps(compiled, values);
  const inputsFile = stringOption(values, 'inputs');
  const inputs: InputsResult = inputsFile
    ? await readInputs(inputsFile, compiled)
    : { ok: true, inputs: compiled.definition.example_inputs };
  if (!inputs.ok) {
    if (format === 'json') output.out(JSON.stringify(inputs.diagnostics, null, 2));
    else for (const entry of inputs.diagnostics) output.out(formatDiagnostic(entry));
    const count = inputs.diagnostics.length;
    throw new CommandFailure(
      `${inputsFile!} has ${count} input problem${count === 1 ? '' : 's'}; no run was created`,
    );
  }

  const simulation = await simulateRun(compiled, inputs.inputs, { reject, fail, seed });
  const { run, records } = simulation;
  if (format === 'json') {
    output.out(JSON.stringify(records, null, 2));
  } else {
    output.out(
      `${compiled.id} ${compiled.digest} — test environment, seed ${seed}, inputs: ${inputsFile ?? 'example_inputs'}`,
    );
    output.out('');
    for (const line of formatTimeline(records, compiled)) output.out(line);
    output.out('');
    for (const line of formatOutcome(run, records)) output.out(line);
    for (const [option, steps] of [
      ['reject', reject],
      ['fail', fail],
    ] as const) {
      for (const step of steps)
        if (!simulation.used.has(step))
          output.out(`note        --${option} ${step}: the run never waited for it`);
    }
  }
  if (!simulation.finished) {
    const awaiting = run.awaiting;
    throw new CommandFailure(
      `the run did not finish: it still waits${awaiting ? ` for ${awaiting.kind} ${awaiting.step}` : ''} with no timer to move to`,
    );
  }
  if (run.status !== 'completed') {
    const outcome = run.outcome;
    throw new CommandFailure(
      `the run ${run.status}${outcome ? `${outcome.step ? ` at ${outcome.step}` : ''}: ${outcome.reason}` : ''}`,
    );
  }
  return EXIT.ok;
}
