import { isProgramrunError } from '@programrun/evidence';
import { activationsCommand } from './commands/activations.js';
import { keysCommand } from './commands/keys.js';
import { verifyCommand, EXIT, type Output } from './commands/verify.js';
import { openStoreFromEnvironment, type StoreOpener } from './store/open-store.js';
import { UsageError } from './usage-error.js';

const USAGE = `usage: programrun <command> [options]

commands:
  verify <bundle.json> --jwks <keys.json|url>        verify exported evidence offline
  keys create|list|revoke --account <id> …           API keys (pr_test_… / pr_live_…)
  activations activate|list|revoke --account <id> …  issuer activations of restricted scenarios

keys and activations work on the store PROGRAMRUN_STORE names: memory (default), pglite
(PROGRAMRUN_DATA_DIR, default .programrun/data) or postgres (DATABASE_URL).`;

/** What the CLI reads from its surroundings; tests pass their own. */
export interface CliContext {
  /** Opens the store `keys` and `activations` work on. @default from PROGRAMRUN_STORE */
  readonly openStore?: StoreOpener;
  /** Environment variables. @default process.env */
  readonly environment?: Readonly<Record<string, string | undefined>>;
}

/** Runs a store command: a usage problem exits 2, a refusal (e.g. unknown key) exits 1. */
async function storeCommand(
  name: string,
  output: Output,
  work: () => Promise<void>,
): Promise<number> {
  try {
    await work();
    return EXIT.ok;
  } catch (error) {
    if (error instanceof UsageError) {
      output.err(`programrun ${name}: ${error.message}`);
      return EXIT.usage;
    }
    if (isProgramrunError(error)) {
      output.err(`programrun ${name}: ${error.code}: ${error.message}`);
      return EXIT.failed;
    }
    output.err(`programrun ${name}: ${error instanceof Error ? error.message : String(error)}`);
    return EXIT.failed;
  }
}

/**
 * Runs the `programrun` command line with its arguments and returns the exit code:
 * 0 done, 1 refused or failed (one-line reason on stderr), 2 usage problem.
 *
 * @example
 * ```ts
 * process.exitCode = await runCli(process.argv.slice(2), { out: console.log, err: console.error });
 * ```
 */
export async function runCli(
  argv: readonly string[],
  output: Output,
  context: CliContext = {},
): Promise<number> {
  const environment = context.environment ?? process.env;
  const openStore = context.openStore ?? (() => openStoreFromEnvironment(environment));
  const [command, ...rest] = argv;
  switch (command) {
    case 'verify':
      return verifyCommand(rest, output);
    case 'keys':
      return storeCommand('keys', output, () => keysCommand(rest, output, openStore));
    case 'activations':
      return storeCommand('activations', output, () =>
        activationsCommand(rest, output, openStore, environment),
      );
    case undefined:
    case '--help':
    case '-h':
      output.out(USAGE);
      return command === undefined ? EXIT.usage : EXIT.ok;
    default:
      output.err(`programrun: unknown command "${command}"\n${USAGE}`);
      return EXIT.usage;
  }
}
