import { CommandFailure } from '../command.js';
import { integerOption, parseOptions, stringOption } from '../parse-options.js';
import { startReferenceServer, type ReferenceServer } from '../serve/reference-server.js';
import { UsageError } from '../usage-error.js';
import { EXIT, type Output } from './verify.js';

const USAGE = 'usage: programrun serve [--port N] [--host <address>] [--scenarios <directory>]';

/** Resolves with the signal's name when the process should shut down. */
export type ShutdownSignal = () => Promise<string>;

/** SIGINT or SIGTERM, whichever comes first; a second one exits at once. */
export const processShutdownSignal: ShutdownSignal = () =>
  new Promise((resolve) => {
    const first = (signal: NodeJS.Signals) => {
      process.off('SIGINT', first);
      process.off('SIGTERM', first);
      const again = () => process.exit(130);
      process.once('SIGINT', again);
      process.once('SIGTERM', again);
      resolve(signal);
    };
    process.on('SIGINT', first);
    process.on('SIGTERM', first);
  });

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '::1']);

/** What the server prints once it listens: where, which store, the key, how to start. */
function banner(server: ReferenceServer, host: string): string[] {
  const base = server.url;
  const key = server.testKey;
  const example =
    server.scenarios.find((scenario) => scenario.id === 'wallet-delivery@v1') ??
    server.scenarios[0]!;
  const body = JSON.stringify({
    scenario_id: example.id,
    inputs: example.definition.example_inputs,
  }).replace(/'/g, "'\\''");
  const where =
    server.store.kind === 'memory'
      ? 'memory: nothing is kept when the server stops'
      : `${server.store.kind} at ${server.store.location ?? ''}`;
  return [
    `programrun reference server on ${base} (store: ${server.store.kind}, ${server.scenarios.length} scenarios)`,
    `Data: ${where}`,
    ...(server.store.kind === 'pglite'
      ? ['  (set PROGRAMRUN_DATA_DIR to keep it elsewhere; delete the directory to start over)']
      : []),
    ...(LOOPBACK.has(host)
      ? []
      : [
          `Listening on ${host}, not only loopback: anyone who can reach this host can call it with the key below.`,
        ]),
    `Test API key: ${key}`,
    '',
    'Create a run:',
    `  curl -s ${base}/v1/program-runs \\`,
    `    -H "Authorization: Bearer ${key}" \\`,
    `    -H "Idempotency-Key: $(node -e 'console.log(crypto.randomUUID())')" \\`,
    `    -H "Content-Type: application/json" \\`,
    `    -d '${body}'`,
    '',
    'Then follow it (simulated partners answer after ~2 s):',
    `  curl -s ${base}/v1/program-runs/<id> -H "Authorization: Bearer ${key}"`,
    `Catalogue: curl -s ${base}/v1/scenarios -H "Authorization: Bearer ${key}"`,
    `Evidence (signed by ${server.evidence.kid}): curl -s ${base}/v1/program-runs/<id>/evidence -H "Authorization: Bearer ${key}" > bundle.json`,
    `  programrun verify bundle.json --jwks ${base}/v1/evidence-keys`,
    '',
    'Stop with Ctrl-C (SIGINT) or SIGTERM.',
  ];
}

/**
 * `programrun serve`: the reference HTTP server in this process (the whole `/v1` surface
 * over the scenarios of `--scenarios`, default `scenarios`), on loopback port `--port`
 * (default PORT, else 8787). The store is PGlite in `.programrun/data` unless
 * PROGRAMRUN_STORE / PROGRAMRUN_DATA_DIR / DATABASE_URL say otherwise. Prints the test
 * key; SIGINT or SIGTERM stop it cleanly (exit 0).
 *
 * @example
 * ```ts
 * await serveCommand(['--port', '0'], output, process.env, processShutdownSignal);
 * ```
 */
export async function serveCommand(
  argv: readonly string[],
  output: Output,
  environment: Readonly<Record<string, string | undefined>>,
  shutdown: ShutdownSignal,
): Promise<number> {
  const { values, positionals } = parseOptions(argv, {
    port: { type: 'string' },
    host: { type: 'string' },
    scenarios: { type: 'string' },
    help: { type: 'boolean' },
  });
  if (values.help) {
    output.out(USAGE);
    return EXIT.ok;
  }
  if (positionals.length > 0) throw new UsageError(`unexpected argument ${positionals[0]!}`);
  const port = integerOption(
    values.port === undefined && environment.PORT ? { port: environment.PORT } : values,
    'port',
    { min: 0, max: 65_535, fallback: 8787 },
  );
  const host = stringOption(values, 'host', '127.0.0.1');
  // Listen for signals before starting, so one that arrives during start-up is not lost.
  const stopping = shutdown();
  const server = await startReferenceServer({
    port,
    host,
    scenarioDirectory: stringOption(values, 'scenarios', 'scenarios'),
    environment,
  });
  for (const line of banner(server, host)) output.out(line);
  const signal = await stopping;
  output.out(`${signal}: shutting down`);
  try {
    await server.close();
  } catch (error) {
    throw new CommandFailure(`shutdown: ${error instanceof Error ? error.message : String(error)}`);
  }
  output.out('Stopped.');
  return EXIT.ok;
}
