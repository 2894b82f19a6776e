import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { CompiledScenario } from '@programrun/dsl';
import {
  createAccounts,
  createEngine,
  generateApiKey,
  parseApiKey,
  startScheduler,
} from '@programrun/engine';
import { createWebhookDispatcher } from '@programrun/webhooks';
import { createConsoleHandler } from '@programrun/console';
import { createHandler, firstMatching } from '@programrun/http';
import { createNodeListener } from '@programrun/http/node';
import type { StoreKind } from '@programrun/store-postgres';
import { CommandFailure } from '../command.js';
import { UsageError } from '../usage-error.js';
import { keptSecret } from './kept-secret.js';
import { openReferenceStore } from './reference-store.js';
import { referenceEvidenceKeys, type EvidenceKeySource } from './evidence-keys.js';
import { referenceWebhookSecretKeys, type WebhookSecretKeySource } from './webhook-secret-keys.js';
import { catalogueOf } from '../scenarios/scenario-files.js';
import { partnerConnections } from './partner-connections.js';
import { PARTNERS_VARIABLE, readPartnersFile } from './partners-file.js';
import { drainableListener } from './http-drain.js';
import { logSettings } from './log-settings.js';
import { createServerLogger } from './server-logger.js';
import { shutdownTimeoutMs } from './shutdown-timeout.js';
import {
  startTelemetryExport,
  telemetryExportSettings,
  type TelemetryExport,
  type TelemetryExportSettings,
} from './telemetry-export.js';

/** Where and what the reference server serves. */
export interface ReferenceServerOptions {
  /** Port to listen on; 0 picks a free one. */
  readonly port: number;
  /** Address to bind: loopback (127.0.0.1) unless the operator asks otherwise. */
  readonly host: string;
  /** Directory of `*.yaml` scenarios (the catalogue). */
  readonly scenarioDirectory: string;
  /**
   * Keeps the one JSON line per request (at `info`, on stdout) even when
   * PROGRAMRUN_LOG_LEVEL (or NODE_ENV=test, which makes logs `silent` by default) would
   * hide it. Request lines are on by default now; this was how to turn them on. @default false
   */
  readonly accessLog?: boolean;
  /**
   * PROGRAMRUN_STORE, PROGRAMRUN_DATA_DIR, DATABASE_URL, PROGRAMRUN_TEST_KEY,
   * PROGRAMRUN_EVIDENCE_KEY_TEST (or its former name PROGRAMRUN_EVIDENCE_KEY) and
   * PROGRAMRUN_EVIDENCE_KEY_LIVE, PROGRAMRUN_SECRET_KEY, PROGRAMRUN_PARTNERS,
   * PROGRAMRUN_LOG_LEVEL, PROGRAMRUN_SHUTDOWN_TIMEOUT_MS, and the OTEL_* variables that
   * turn on OTLP export (whose exporters read the same variables from `process.env`:
   * pass `process.env`, or a copy of it, to export).
   */
  readonly environment: Readonly<Record<string, string | undefined>>;
}

/** A running reference server. */
export interface ReferenceServer {
  /** `http://127.0.0.1:<port>`. */
  readonly url: string;
  /** The run console, served at `/console` next to the API: `<url>/console`. */
  readonly consoleUrl: string;
  /** The test API key of account `acct_demo`. */
  readonly testKey: string;
  /** `notice`: why the store is not the default embedded PostgreSQL, when it could not be used. */
  readonly store: {
    readonly kind: StoreKind;
    readonly location: string | null;
    readonly notice: string | null;
  };
  /** The directory the scenarios were loaded from. */
  readonly scenarioDirectory: string;
  readonly scenarios: readonly CompiledScenario[];
  /**
   * The evidence signing key of each environment (test evidence is never signed with the
   * live key, nor the reverse): its id, and where it comes from: its variable
   * (`configured`), a file in the data directory (`kept`, with its path), or made for this
   * process only (`process`, memory and PostgreSQL stores).
   */
  readonly evidence: { readonly test: EvidenceKeySource; readonly live: EvidenceKeySource };
  /**
   * The key that seals webhook signing secrets at rest: PROGRAMRUN_SECRET_KEY
   * (`configured`), a file in the data directory (`kept`), made for this process
   * (`process`, memory store), or none (`none`: an external PostgreSQL without the variable).
   */
  readonly webhookSecrets: WebhookSecretKeySource;
  /**
   * The live partners of PROGRAMRUN_PARTNERS (party, URL and limits), whose handoffs the
   * server's workers send; empty without the variable (live handoffs then wait for a
   * `POST …/handoffs/{step}` answer).
   */
  readonly partners: readonly {
    readonly party: string;
    readonly url: string;
    readonly concurrency: number | null;
    readonly rate: number | null;
  }[];
  /**
   * Where traces and metrics are exported over OTLP (OTEL_EXPORTER_OTLP_ENDPOINT and the
   * other standard variables), or null: nothing is exported.
   */
  readonly telemetry: TelemetryExportSettings | null;
  /** PROGRAMRUN_SHUTDOWN_TIMEOUT_MS: how long `close()` lets work in flight finish. */
  readonly shutdownTimeoutMs: number;
  /**
   * Stops, draining: `/readyz` answers not ready at once; open event streams end; the
   * server stops accepting connections and lets the requests in flight finish (each until
   * the shutdown timeout);
   * the scheduler, handoff workers and webhook dispatcher claim nothing more, let their
   * calls and deliveries in flight finish within what is left of the timeout, then abort
   * them and give back every lease this host holds; telemetry is flushed; the store
   * closes. Logs one `drained` line. Calling it again waits for the same stop.
   */
  close(): Promise<void>;
}

const reason = (error: unknown) => (error instanceof Error ? error.message : String(error));

/**
 * Starts the reference server in this process (`programrun serve`, and examples/node-http
 * behind the README's first command): the store
 * PROGRAMRUN_STORE names (by default embedded PostgreSQL, a server this process runs and
 * stops, in PROGRAMRUN_DATA_DIR, default `.programrun/data`), the scenarios of a directory, simulated partners answering after 2 s, the
 * timer scheduler and handoff workers, webhook delivery (loopback endpoints allowed), live
 * partners reached over HTTP as PROGRAMRUN_PARTNERS says, and a test key for
 * `acct_demo` (PROGRAMRUN_TEST_KEY, else kept in the data directory, else new).
 *
 * @example
 * ```ts
 * const server = await startReferenceServer({ port: 8787, host: '127.0.0.1', scenarioDirectory: 'scenarios', environment: process.env });
 * console.log(server.url, server.testKey);
 * await server.close();
 * ```
 */
export async function startReferenceServer(
  options: ReferenceServerOptions,
): Promise<ReferenceServer> {
  const { environment } = options;
  const configuredKey = environment.PROGRAMRUN_TEST_KEY || undefined;
  if (configuredKey !== undefined && parseApiKey(configuredKey)?.environment !== 'test')
    throw new UsageError(
      'PROGRAMRUN_TEST_KEY is not a programrun test key (pr_test_ + 38 letters and digits ending in a checksum); make one with `programrun keys create --account acct_demo --env test`',
    );

  // Checked before the store opens: a bad partners file (or setting) stops the server at once.
  const shutdownMs = shutdownTimeoutMs(environment);
  const logs = createServerLogger(logSettings(environment, options.accessLog === true));
  const exportSettings = telemetryExportSettings(environment);
  const partners = await readPartnersFile(environment);
  const scenarios = await catalogueOf(options.scenarioDirectory, '--scenarios');
  const connectors =
    partners === null
      ? {}
      : partnerConnections(partners, scenarios, environment[PARTNERS_VARIABLE] ?? '');

  // Before the store, engine and handler exist, so they find the SDK's providers.
  const telemetry: TelemetryExport | null = exportSettings
    ? await startTelemetryExport(exportSettings, logs.logger)
    : null;
  const opened = await openReferenceStore(environment).catch(async (error: unknown) => {
    await telemetry?.shutdown();
    throw error;
  });
  const { notice } = opened;
  const cleanups: (() => Promise<void>)[] = [() => opened.opened.close()];
  if (telemetry) cleanups.push(() => telemetry.shutdown());
  const closeAll = async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  };
  try {
    const store = opened.opened;
    // The server's own secrets live next to the database files (not kept for memory or an
    // external PostgreSQL).
    const secretsDir = store.kind === 'embedded' || store.kind === 'pglite' ? store.location : null;
    const evidenceKeys = await referenceEvidenceKeys(environment, secretsDir);
    const webhookKeys = await referenceWebhookSecretKeys(environment, secretsDir, {
      create: true,
      processKey: store.kind === 'memory',
    });
    const engine = createEngine({
      store: store.store,
      scenarios,
      // Simulated counterparties answer on their own two seconds after each handoff.
      sandbox: { responseDelayMs: 2_000 },
      evidence: { keys: evidenceKeys.keys },
      // A development server: webhook endpoints may be loopback. Never in production.
      // Signing secrets are sealed at rest with the server's webhook secret key.
      webhooks: { allowLoopback: true, secretKeys: webhookKeys.keys },
      // Live handoffs of these parties go to their HTTP endpoints (the scheduler runs the
      // workers); other parties' wait for an answer posted to the API.
      ...(Object.keys(connectors).length > 0 ? { connectors } : {}),
    });
    const testKey =
      configuredKey ??
      (await keptSecret(secretsDir, 'test-api-key', () => generateApiKey('test'))).value;
    const accounts = createAccounts({ store: store.store });
    await accounts.apiKeys
      .register({
        account: 'acct_demo',
        environment: 'test',
        description: 'reference server',
        secret: testKey,
      })
      .catch((error: unknown) => {
        throw new CommandFailure(`test key: ${reason(error)}`);
      });
    const scheduler = startScheduler(engine, {
      intervalMs: 250,
      onError: logs.backgroundError('scheduler'),
    });
    const dispatcher = createWebhookDispatcher(engine, {
      onError: logs.backgroundError('webhook-dispatcher'),
    });
    dispatcher.start();
    // Stopping them claims nothing more and gives every lease back (see close()).
    let graceMs = 0;
    cleanups.push(() =>
      Promise.all([scheduler.stop({ graceMs }), dispatcher.stop({ graceMs })]).then(
        () => undefined,
      ),
    );

    // One line per request at info, one per 5xx at error (PROGRAMRUN_LOG_LEVEL).
    const handler = createHandler({
      engine,
      accounts,
      onAccess: logs.onAccess,
      onError: logs.onError,
    });
    // The run console at /console, the API (and the health probes) everywhere else.
    const requests = drainableListener(
      createNodeListener(firstMatching(createConsoleHandler(), handler)),
    );
    const server = createServer(requests.listener);
    await new Promise<void>((resolve, reject) => {
      server.once('error', (error: NodeJS.ErrnoException) =>
        reject(
          new CommandFailure(
            error.code === 'EADDRINUSE'
              ? `port ${options.port} is in use; choose another with --port or PORT (0 picks a free one)`
              : error.code === 'EADDRNOTAVAIL'
                ? `cannot listen on ${options.host}: no such local address`
                : `cannot listen on ${options.host}:${options.port}: ${error.message}`,
          ),
        ),
      );
      server.listen(options.port, options.host, resolve);
    });
    // Registered while the server listens: `/readyz` fails as soon as close() begins.
    const serving = engine.background.started('http-server');
    let drained = { inFlight: 0, cutOff: 0 };
    cleanups.push(async () => {
      serving.stopped();
      // Event streams would hold the drain for minutes: they end now (clients reconnect).
      handler.closeStreams();
      // One deadline for the requests in flight, then the calls and deliveries in flight.
      const deadline = Date.now() + shutdownMs;
      drained = await requests.drain(server, deadline);
      graceMs = Math.max(0, deadline - Date.now());
    });
    const stop = async () => {
      const began = Date.now();
      await closeAll();
      logs.logger.info(
        {
          requests_in_flight: drained.inFlight,
          requests_cut_off: drained.cutOff,
          duration_ms: Date.now() - began,
          shutdown_timeout_ms: shutdownMs,
        },
        'drained',
      );
    };
    let stopping: Promise<void> | undefined;
    const { port } = server.address() as AddressInfo;
    // A wildcard address is reached on loopback; an IPv6 address needs brackets in a URL.
    const host =
      options.host === '0.0.0.0'
        ? '127.0.0.1'
        : options.host === '::'
          ? '[::1]'
          : options.host.includes(':')
            ? `[${options.host}]`
            : options.host;
    return {
      url: `http://${host}:${port}`,
      consoleUrl: `http://${host}:${port}/console`,
      testKey,
      store: { kind: store.kind, location: store.location, notice },
      scenarioDirectory: options.scenarioDirectory,
      scenarios,
      evidence: evidenceKeys.sources,
      webhookSecrets: webhookKeys.source,
      partners: Object.entries(partners ?? {}).map(([party, settings]) => ({
        party,
        url: settings.url,
        concurrency: settings.concurrency ?? null,
        rate: settings.rate ?? null,
      })),
      telemetry: exportSettings,
      shutdownTimeoutMs: shutdownMs,
      close: () => (stopping ??= stop()),
    };
  } catch (error) {
    await closeAll();
    throw error;
  }
}
