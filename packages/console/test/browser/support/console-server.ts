// The server the browser talks to: the real reference server (`programrun serve`) started
// in this process on 127.0.0.1, port 0, with the console at /console and every log line
// (access log on) captured.
import { copyFile, mkdir, mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { openStoreFromEnvironment, runCli, startReferenceServer } from '@programrun/cli';
import { captureServerLogs } from './server-logs.js';

/** The repository's scenario catalogue. */
export const CATALOGUE = fileURLToPath(new URL('../../../../../scenarios/', import.meta.url));

/** An extra API key of account `acct_demo` (test), made before the server starts. */
export interface KeySpec {
  readonly actor: string;
  /** Its scopes; every scope when omitted. */
  readonly scopes?: readonly string[];
}

/** What the server is started with. */
export interface ConsoleServerOptions {
  /** Extra API keys to create, by name. */
  readonly keys?: Readonly<Record<string, KeySpec>>;
  /** Scenario files served next to the repository's catalogue. */
  readonly extraScenarios?: readonly string[];
}

/** What a test gets. */
export interface ConsoleServer {
  /** `http://127.0.0.1:<port>`. */
  readonly url: string;
  /** `<url>/console/`. */
  readonly consoleUrl: string;
  /** The reference server's test key (every scope). */
  readonly testKey: string;
  /** The secret of each requested extra key, by the name it was asked under. */
  readonly keys: Readonly<Record<string, string>>;
  /** Every line the server logged so far. */
  readonly logs: readonly string[];
  close(): Promise<void>;
}

/** Makes the extra keys with `programrun keys create` in the store the server will open. */
async function createKeys(
  environment: Record<string, string>,
  specs: Readonly<Record<string, KeySpec>>,
): Promise<Record<string, string>> {
  const opened = await openStoreFromEnvironment(environment);
  const keys: Record<string, string> = {};
  try {
    for (const [name, spec] of Object.entries(specs)) {
      const out: string[] = [];
      const argv = ['keys', 'create', '--account', 'acct_demo', '--env', 'test', '--json'];
      argv.push('--actor', spec.actor, '--description', name);
      for (const scope of spec.scopes ?? []) argv.push('--scope', scope);
      const code = await runCli(
        argv,
        { out: (line) => out.push(line), err: (line) => out.push(line) },
        { environment, openStore: () => Promise.resolve({ ...opened, close: async () => {} }) },
      );
      if (code !== 0) throw new Error(`keys create ${name} failed: ${out.join('\n')}`);
      keys[name] = (JSON.parse(out.join('\n')) as { secret: string }).secret;
    }
  } finally {
    await opened.close();
  }
  return keys;
}

/** The catalogue plus `extra` files, copied into `<dataDir>/scenarios`. */
async function scenarioDirectory(dataDir: string, extra: readonly string[]): Promise<string> {
  if (extra.length === 0) return CATALOGUE;
  const directory = join(dataDir, 'scenarios');
  await mkdir(directory);
  const files = (await readdir(CATALOGUE)).filter((name) => name.endsWith('.yaml'));
  for (const file of [...files.map((name) => join(CATALOGUE, name)), ...extra])
    await copyFile(file, join(directory, basename(file)));
  return directory;
}

/**
 * Starts the reference server for one test file. Without extra keys it runs on the memory
 * store; with them, on PGlite in a fresh temporary directory, where the keys are created
 * first (the memory store of an in-process server cannot be reached from outside).
 */
export async function startConsoleServer(
  options: ConsoleServerOptions = {},
): Promise<ConsoleServer> {
  const dataDir = await mkdtemp(join(tmpdir(), 'programrun-console-browser-'));
  const durable = options.keys !== undefined && Object.keys(options.keys).length > 0;
  const environment: Record<string, string> = {
    PROGRAMRUN_STORE: durable ? 'pglite' : 'memory',
    PROGRAMRUN_DATA_DIR: dataDir,
    PROGRAMRUN_LOG_LEVEL: 'trace',
    PROGRAMRUN_SHUTDOWN_TIMEOUT_MS: '2000',
  };
  const logs = captureServerLogs();
  try {
    const keys = durable ? await createKeys(environment, options.keys ?? {}) : {};
    const server = await startReferenceServer({
      port: 0,
      host: '127.0.0.1',
      scenarioDirectory: await scenarioDirectory(dataDir, options.extraScenarios ?? []),
      accessLog: true,
      environment,
    });
    return {
      url: server.url,
      consoleUrl: `${server.url}/console/`,
      testKey: server.testKey,
      keys,
      logs: logs.lines,
      async close() {
        try {
          await server.close();
        } finally {
          logs.stop();
          await rm(dataDir, { recursive: true, force: true });
        }
      },
    };
  } catch (error) {
    logs.stop();
    await rm(dataDir, { recursive: true, force: true });
    throw error;
  }
}
