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
import { consoleAccessLog, createHandler } from '@programrun/http';
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

/** Where and what the reference server serves. */
export interface ReferenceServerOptions {
  /** Port to listen on; 0 picks a free one. */
  readonly port: number;
  /** Address to bind: loopback (127.0.0.1) unless the operator asks otherwise. */
  readonly host: string;
  /** Directory of `*.yaml` scenarios (the catalogue). */
  readonly scenarioDirectory: string;
  /**
   * One JSON line per request on stdout (`consoleAccessLog`). Errors (every 5xx) are
   * logged on stderr either way. @default false
   */
  readonly accessLog?: boolean;
  /**
   * PROGRAMRUN_STORE, PROGRAMRUN_DATA_DIR, DATABASE_URL, PROGRAMRUN_TEST_KEY,
   * PROGRAMRUN_EVIDENCE_KEY_TEST (or its former name PROGRAMRUN_EVIDENCE_KEY) and
   * PROGRAMRUN_EVIDENCE_KEY_LIVE, PROGRAMRUN_SECRET_KEY, PROGRAMRUN_PARTNERS.
   */
  readonly environment: Readonly<Record<string, string | undefined>>;
}

/** A running reference server. */
export interface ReferenceServer {
  /** `http://127.0.0.1:<port>`. */
  readonly url: string;
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
  /** Stops accepting requests, stops timers, handoff workers and webhook delivery, closes the store. */
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

  // Checked before the store opens: a bad partners file stops the server at once.
  const partners = await readPartnersFile(environment);
  const scenarios = await catalogueOf(options.scenarioDirectory, '--scenarios');
  const connectors =
    partners === null
      ? {}
      : partnerConnections(partners, scenarios, environment[PARTNERS_VARIABLE] ?? '');

  const { opened, notice } = await openReferenceStore(environment);
  const cleanups: (() => Promise<void>)[] = [() => opened.close()];
  const closeAll = async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  };
  try {
    // The server's own secrets live next to the database files (not kept for memory or an
    // external PostgreSQL).
    const secretsDir =
      opened.kind === 'embedded' || opened.kind === 'pglite' ? opened.location : null;
    const evidenceKeys = await referenceEvidenceKeys(environment, secretsDir);
    const webhookKeys = await referenceWebhookSecretKeys(environment, secretsDir, {
      create: true,
      processKey: opened.kind === 'memory',
    });
    const engine = createEngine({
      store: opened.store,
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
    const accounts = createAccounts({ store: opened.store });
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
    const scheduler = startScheduler(engine, { intervalMs: 250 });
    const dispatcher = createWebhookDispatcher(engine);
    dispatcher.start();
    cleanups.push(() => Promise.all([scheduler.stop(), dispatcher.stop()]).then(() => undefined));

    // Every 5xx is logged on stderr with its request id (the handler's default).
    const handler = createHandler({
      engine,
      accounts,
      ...(options.accessLog ? { onAccess: consoleAccessLog } : {}),
    });
    const server = createServer(createNodeListener(handler));
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
    cleanups.push(
      () =>
        new Promise<void>((resolve) => {
          server.close(() => resolve());
          server.closeIdleConnections();
          // Requests still running get a moment to finish, then their sockets close.
          setTimeout(() => server.closeAllConnections(), 2_000).unref();
        }),
    );
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
      testKey,
      store: { kind: opened.kind, location: opened.location, notice },
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
      close: closeAll,
    };
  } catch (error) {
    await closeAll();
    throw error;
  }
}
