import { verifyCommand, EXIT, type Output } from './commands/verify.js';

const USAGE = `usage: programrun <command> [options]

commands:
  verify <bundle.json> --jwks <keys.json|url>   verify exported evidence offline`;

/**
 * Runs the `programrun` command line with its arguments and returns the exit code.
 *
 * @example
 * ```ts
 * process.exitCode = await runCli(process.argv.slice(2), { out: console.log, err: console.error });
 * ```
 */
export async function runCli(argv: readonly string[], output: Output): Promise<number> {
  const [command, ...rest] = argv;
  switch (command) {
    case 'verify':
      return verifyCommand(rest, output);
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
