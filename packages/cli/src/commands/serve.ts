import { stat } from 'node:fs/promises';
import { scenariosDirectory } from '@programrun/scenarios';
import { CommandFailure } from '../command.js';
import { integerOption, parseOptions, stringOption } from '../parse-options.js';
import { serverBanner } from '../serve/banner.js';
import { startReferenceServer } from '../serve/reference-server.js';
import { UsageError } from '../usage-error.js';
import { EXIT, type Output } from './verify.js';

/** `./scenarios` when there is one, else the catalogue of `@programrun/scenarios`. */
async function defaultScenarioDirectory(): Promise<string> {
  const local = await stat('scenarios').catch(() => null);
  return local?.isDirectory() ? 'scenarios' : scenariosDirectory;
}

const USAGE =
  'usage: programrun serve [--port N] [--host <address>] [--scenarios <directory>] [--access-log]';

/** Resolves with the signal's name when the process should shut down. */
export type ShutdownSignal = () => Promise<string>;

/** How long repeated signals count as the one Ctrl-C (a terminal and the package manager both send it). */
const SAME_SIGNAL_MS = 1_000;

/**
 * SIGINT or SIGTERM, whichever comes first. Ctrl-C under a package manager arrives twice
 * (from the terminal and forwarded by `pnpm`/`npm`), so a signal within a second of the first
 * is the same request; one after that exits at once (130).
 */
export const processShutdownSignal: ShutdownSignal = () =>
  new Promise((resolve) => {
    const first = (signal: NodeJS.Signals) => {
      process.off('SIGINT', first);
      process.off('SIGTERM', first);
      const firstAt = Date.now();
      const again = () => {
        if (Date.now() - firstAt >= SAME_SIGNAL_MS) process.exit(130);
      };
      process.on('SIGINT', again);
      process.on('SIGTERM', again);
      resolve(signal);
    };
    process.on('SIGINT', first);
    process.on('SIGTERM', first);
  });

/**
 * `programrun serve`: the reference HTTP server in this process (the whole `/v1` surface
 * over the scenarios of `--scenarios`, default `./scenarios` when it exists, else the seven
 * catalogue scenarios of `@programrun/scenarios`), on loopback port `--port`
 * (default PORT, else 8787). Logs are JSON lines (pino) at PROGRAMRUN_LOG_LEVEL (default
 * `info`, `silent` under NODE_ENV=test): one per request on stdout, one per 5xx with its
 * cause on stderr; `--access-log` keeps the request lines whatever the level. With
 * OTEL_EXPORTER_OTLP_ENDPOINT it exports traces and metrics over OTLP. The store is
 * embedded PostgreSQL (a server the command runs and stops itself) in `.programrun/data`
 * unless PROGRAMRUN_STORE / PROGRAMRUN_DATA_DIR / DATABASE_URL say otherwise. Prints the
 * test key; SIGINT or SIGTERM stop it draining (readiness fails at once, requests, calls and
 * deliveries in flight finish within PROGRAMRUN_SHUTDOWN_TIMEOUT_MS, leases are given
 * back, telemetry flushed, the store closed), exit 0.
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
    'access-log': { type: 'boolean' },
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
    scenarioDirectory:
      values.scenarios === undefined
        ? await defaultScenarioDirectory()
        : stringOption(values, 'scenarios', 'scenarios'),
    environment,
    accessLog: values['access-log'] === true,
  });
  for (const line of serverBanner(server, host)) output.out(line);
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
