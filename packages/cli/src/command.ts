import { isProgramrunError } from '@programrun/evidence';
import { EXIT, type Output } from './commands/verify.js';
import { UsageError } from './usage-error.js';

/**
 * A command that ran but failed (a scenario with problems, a run that faulted, a port in
 * use): the CLI prints its message on one line and exits 1.
 *
 * @example
 * ```ts
 * throw new CommandFailure('port 8787 is in use; pass --port');
 * ```
 */
export class CommandFailure extends Error {}

/** A message on one line: later lines are joined with `; `. */
export function oneLine(message: string): string {
  return message
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '')
    .join('; ');
}

/**
 * Runs a command and turns what it throws into the exit code and ONE stderr line,
 * `programrun <name>: <reason>`: a {@link UsageError} exits 2, anything else exits 1
 * (a programrun error prints its code first).
 *
 * @example
 * ```ts
 * process.exitCode = await runCommand('validate', output, () => validateCommand(argv, output));
 * ```
 */
export async function runCommand(
  name: string,
  output: Output,
  work: () => Promise<number | void>,
): Promise<number> {
  try {
    return (await work()) ?? EXIT.ok;
  } catch (error) {
    if (error instanceof UsageError) {
      output.err(`programrun ${name}: ${oneLine(error.message)}`);
      return EXIT.usage;
    }
    if (isProgramrunError(error)) {
      output.err(`programrun ${name}: ${error.code}: ${oneLine(error.message)}`);
      return EXIT.failed;
    }
    output.err(
      `programrun ${name}: ${oneLine(error instanceof Error ? error.message : String(error))}`,
    );
    return EXIT.failed;
  }
}
