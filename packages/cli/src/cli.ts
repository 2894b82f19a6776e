import { isProgramrunError } from '@programrun/evidence';
import { runCommand } from './command.js';
import { activationsCommand, ACTIVATIONS_USAGE } from './commands/activations.js';
import type { ProgressStream } from './check/progress.js';
import { keysCommand, KEYS_USAGE } from './commands/keys.js';
import type { ShutdownSignal } from './commands/serve.js';
import { verifyCommand, EXIT, VERIFY_USAGE, type Output } from './commands/verify.js';
import { webhooksCommand, WEBHOOKS_USAGE } from './commands/webhooks.js';
import { openStoreFromEnvironment, type StoreOpener } from './store/open-store.js';
import { UsageError } from './usage-error.js';

const USAGE = `usage: programrun <command> [options]

scenarios:
  validate [<file|dir>…]                 check scenario files, compiler-style (default: scenarios/)
      [--format text|json]
  simulate <scenario.yaml>               run once on a virtual clock and print the timeline
      [--inputs <file.json>] [--reject <step>]… [--fail <step>]… [--seed N] [--format text|json]
  check [<file|dir>…]                    run the property suite (default: scenarios/)
      [--runs N] [--seed N] [--path P] [--property <name>]… [--quiet] [--format text|json]
  graph <scenario.yaml>                  the stage and step diagram
      [--format mermaid|svg] [--out <file>]
  new <name>                             scaffold <name>@v1.yaml and its property test
      [--dir scenarios] [--family <family>]
  upgrade check <from> <to>              prove runs of one version can move to the next
      [--migration <file>] [--scenarios <dir>] [--format text|json]
  upgrade apply <from> <to> --account <id>           move stored runs to the new version
  upgrade status <scenario> --account <id>           runs of each version by status (drained?)
      [--env test|live] [--format text|json]

servers and evidence:
  serve                                  the reference HTTP server, loopback only
      [--port N] [--host <address>] [--scenarios <dir>]
  verify <bundle.json> --jwks <keys.json|url>        verify exported evidence offline
      [--run <prun_…>] [--env test|live] [--scenario <id@vN>] [--scenario-digest <sha256:…>] [--kid <kid>]
  keys create|list|revoke --account <id> …           API keys (pr_test_… / pr_live_…)
  activations activate|list|revoke --account <id> …  issuer activations of restricted scenarios
  webhooks reseal-secrets                            seal webhook secrets with PROGRAMRUN_SECRET_KEY

keys, activations and webhooks work on the store PROGRAMRUN_STORE names: memory (default), embedded
or pglite (PROGRAMRUN_DATA_DIR, default .programrun/data) or postgres (DATABASE_URL); serve
defaults to embedded (a PostgreSQL server of its own in the data directory). \`programrun <command> --help\` prints a command's usage; docs/guides/cli.md
describes every command. Exit codes: 0 done, 1 failed or refused, 2 usage problem.`;

/** What the CLI reads from its surroundings; tests pass their own. */
export interface CliContext {
  /** Opens the store `keys`, `activations` and `webhooks` work on. @default from PROGRAMRUN_STORE */
  readonly openStore?: StoreOpener;
  /** Environment variables. @default process.env */
  readonly environment?: Readonly<Record<string, string | undefined>>;
  /** When `serve` stops. @default the first SIGINT or SIGTERM */
  readonly shutdown?: ShutdownSignal;
  /** Where `check` shows progress: a bar on a terminal, plain lines otherwise. @default process.stderr */
  readonly progress?: ProgressStream;
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
  const help = rest.length === 1 && (rest[0] === '--help' || rest[0] === '-h');
  const usages: Readonly<Record<string, string>> = {
    verify: VERIFY_USAGE,
    keys: KEYS_USAGE,
    activations: ACTIVATIONS_USAGE,
    webhooks: WEBHOOKS_USAGE,
  };
  if (help && command !== undefined && Object.hasOwn(usages, command)) {
    output.out(usages[command]!);
    return EXIT.ok;
  }
  switch (command) {
    // Each command loads its libraries when it runs: `verify` needs no property tester.
    case 'validate':
      return runCommand(command, output, async () =>
        (await import('./commands/validate.js')).validateCommand(rest, output),
      );
    case 'simulate':
      return runCommand(command, output, async () =>
        (await import('./commands/simulate.js')).simulateCommand(rest, output),
      );
    case 'graph':
      return runCommand(command, output, async () =>
        (await import('./commands/graph.js')).graphCommand(rest, output),
      );
    case 'check':
      return runCommand(command, output, async () =>
        (await import('./commands/check.js')).checkCommand(
          rest,
          output,
          context.progress ?? process.stderr,
        ),
      );
    case 'upgrade':
      // `status` counts stored runs; `check` reads only files.
      if (rest[0] === 'status')
        return storeCommand('upgrade', output, async () => {
          const { upgradeStatusCommand } = await import('./commands/upgrade-status.js');
          await upgradeStatusCommand(rest.slice(1), output, openStore);
        });
      if (rest[0] === 'apply')
        return runCommand(command, output, async () => {
          const { upgradeApplyCommand } = await import('./commands/upgrade-apply.js');
          return upgradeApplyCommand(rest.slice(1), output, openStore);
        });
      return runCommand(command, output, async () =>
        (await import('./commands/upgrade.js')).upgradeCommand(rest, output),
      );
    case 'new':
      return runCommand(command, output, async () =>
        (await import('./commands/new.js')).newCommand(rest, output),
      );
    case 'serve':
      return runCommand(command, output, async () => {
        const { serveCommand, processShutdownSignal } = await import('./commands/serve.js');
        return serveCommand(rest, output, environment, context.shutdown ?? processShutdownSignal);
      });
    case 'verify':
      return verifyCommand(rest, output);
    case 'keys':
      return storeCommand('keys', output, () => keysCommand(rest, output, openStore));
    case 'activations':
      return storeCommand('activations', output, () =>
        activationsCommand(rest, output, openStore, environment),
      );
    case 'webhooks':
      return storeCommand('webhooks', output, () =>
        webhooksCommand(rest, output, openStore, environment),
      );
    case undefined:
    case '--help':
    case '-h':
    case 'help':
      output.out(USAGE);
      return command === undefined ? EXIT.usage : EXIT.ok;
    default:
      output.err(`programrun: unknown command "${command}" (programrun --help lists them)`);
      return EXIT.usage;
  }
}
