import type { EvidenceEnvironment } from '@programrun/evidence';
import { EVIDENCE_KEY_VARIABLES, LEGACY_EVIDENCE_KEY_VARIABLE } from './evidence-keys.js';
import type { ReferenceServer } from './reference-server.js';
import { WEBHOOK_SECRET_KEY_VARIABLE } from './webhook-secret-keys.js';

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '::1']);

/** A header value for the shell, in a `-H "…"` argument. */
const idempotencyHeader = `-H "Idempotency-Key: $(node -e 'console.log(crypto.randomUUID())')"`;

/** Where one environment's evidence key comes from, for the banner. */
function evidenceKeyLine(server: ReferenceServer, environment: EvidenceEnvironment): string {
  const { kid, source, variable, file } = server.evidence[environment];
  const where =
    source === 'configured'
      ? variable === LEGACY_EVIDENCE_KEY_VARIABLE
        ? `from ${variable} (the former name of ${EVIDENCE_KEY_VARIABLES.test})`
        : `from ${variable ?? EVIDENCE_KEY_VARIABLES[environment]}`
      : source === 'kept'
        ? `kept in ${file ?? 'the data directory'}`
        : `made for this process: set ${EVIDENCE_KEY_VARIABLES[environment]} to keep one`;
  return `  ${environment} evidence is signed by ${kid}, ${where}`;
}

/** How webhook signing secrets are kept, for the banner. */
function webhookSecretsLine(server: ReferenceServer): string {
  const { kid, source, file } = server.webhookSecrets;
  return source === 'none'
    ? `  signing secrets are stored readable: set ${WEBHOOK_SECRET_KEY_VARIABLE} to seal them at rest`
    : `  signing secrets are sealed at rest (AES-256-GCM) with key ${kid ?? ''}, ${
        source === 'configured'
          ? `from ${WEBHOOK_SECRET_KEY_VARIABLE}`
          : source === 'kept'
            ? `kept in ${file ?? 'the data directory'}`
            : 'made for this process'
      }`;
}

/** The live partners of PROGRAMRUN_PARTNERS, for the banner (nothing without them). */
function partnerLines(server: ReferenceServer): string[] {
  if (server.partners.length === 0) return [];
  return [
    'Live partners (PROGRAMRUN_PARTNERS; GET /v1/partners shows their queues and breakers):',
    ...server.partners.map(({ party, url, concurrency, rate }) => {
      const limits = [
        concurrency === null ? null : `concurrency ${concurrency}`,
        rate === null ? null : `${rate} calls/s`,
      ].filter((limit) => limit !== null);
      return `  ${party} → ${url}${limits.length > 0 ? ` (${limits.join(', ')})` : ''}`;
    }),
    '',
  ];
}

/** Whether and where traces and metrics are exported, for the banner. */
function telemetryLine(server: ReferenceServer): string {
  const { telemetry } = server;
  if (telemetry === null)
    return 'Telemetry: not exported (set OTEL_EXPORTER_OTLP_ENDPOINT to send traces and metrics to a collector)';
  const signals = [
    telemetry.traces
      ? `traces to ${telemetry.traces.endpoint} (${telemetry.traces.protocol})`
      : null,
    telemetry.metrics
      ? `metrics to ${telemetry.metrics.endpoint} (${telemetry.metrics.protocol}, every ${telemetry.metricIntervalMs} ms)`
      : null,
  ].filter((signal) => signal !== null);
  return `Telemetry: OTLP ${signals.join(', ')} as service ${telemetry.serviceName}`;
}

/**
 * What the reference server prints once it listens: where, the run console, which store,
 * the test key, and ready-to-paste `curl` commands that create a run, follow it, approve
 * it, register a webhook endpoint and export and verify its evidence.
 */
export function serverBanner(server: ReferenceServer, host: string): string[] {
  const base = server.url;
  const auth = `-H "Authorization: Bearer ${server.testKey}"`;
  const example =
    server.scenarios.find((scenario) => scenario.id === 'wallet-delivery@v1') ??
    server.scenarios[0]!;
  const body = JSON.stringify({
    scenario_id: example.id,
    inputs: example.definition.example_inputs,
  }).replace(/'/g, "'\\''");
  const where = {
    memory: 'memory: nothing is kept when the server stops',
    embedded: `embedded PostgreSQL at ${server.store.location ?? ''} (each answered write is flushed to disk first)`,
    pglite: `pglite at ${server.store.location ?? ''} (kept through restarts and crashes of this process, but never flushed to disk: a power loss can lose it)`,
    postgres: `postgres at ${server.store.location ?? ''}`,
  }[server.store.kind];
  return [
    `programrun reference server on ${base} (store: ${server.store.kind}, ${server.scenarios.length} scenarios)`,
    `Console: ${server.consoleUrl} (paste the test API key)`,
    `Scenarios: ${server.scenarioDirectory}`,
    `Data: ${where}`,
    ...(server.store.notice ? [`  (${server.store.notice})`] : []),
    ...(server.store.kind === 'embedded' || server.store.kind === 'pglite'
      ? ['  (set PROGRAMRUN_DATA_DIR to keep it elsewhere; delete the directory to start over)']
      : []),
    ...(LOOPBACK.has(host)
      ? []
      : [
          `Listening on ${host}, not only loopback: anyone who can reach this host can call it with the key below.`,
        ]),
    `Test API key: ${server.testKey}`,
    '',
    'Create a run:',
    `  curl -s ${base}/v1/program-runs \\`,
    `    ${auth} \\`,
    `    ${idempotencyHeader} \\`,
    `    -H "Content-Type: application/json" \\`,
    `    -d '${body}'`,
    '',
    'Then follow it (simulated partners answer after ~2 s):',
    `  curl -s ${base}/v1/program-runs/<id> ${auth}`,
    `  curl -s ${base}/v1/program-runs/<id>/approvals ${auth} \\`,
    `    -H "Content-Type: application/json" -d '{"step":"release_approval","decision":"approve","approver":"ops:you"}'`,
    `Catalogue: curl -s ${base}/v1/scenarios ${auth}`,
    '',
    'Webhooks (the answer holds the whsec_ signing secret, shown once; loopback URLs allowed here):',
    `  curl -s ${base}/v1/webhook-endpoints ${auth} \\`,
    `    ${idempotencyHeader} \\`,
    `    -H "Content-Type: application/json" -d '{"url":"http://127.0.0.1:4000/webhooks"}'`,
    `  curl -s "${base}/v1/events?limit=5" ${auth}`,
    webhookSecretsLine(server),
    '',
    ...partnerLines(server),
    'Evidence (each environment has its own signing key; GET /v1/evidence-keys says whose):',
    evidenceKeyLine(server, 'test'),
    evidenceKeyLine(server, 'live'),
    `  curl -s ${base}/v1/access-requests ${auth} -H "Content-Type: application/json" \\`,
    `    -d '{"session_id":"<session>","name":"Ana","email":"ana@example.com","company":"Example","use_case":"Audit"}'`,
    `  curl -sf ${base}/v1/program-runs/<id>/evidence ${auth} -o bundle.json`,
    `  npx programrun verify bundle.json --jwks ${base}/v1/evidence-keys --env test --run <id>`,
    '',
    telemetryLine(server),
    `Stop with Ctrl-C (SIGINT) or SIGTERM: it drains work in flight for up to ${server.shutdownTimeoutMs} ms (PROGRAMRUN_SHUTDOWN_TIMEOUT_MS).`,
  ];
}
