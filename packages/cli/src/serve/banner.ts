import type { ReferenceServer } from './reference-server.js';

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '::1']);

/** A header value for the shell, in a `-H "…"` argument. */
const idempotencyHeader = `-H "Idempotency-Key: $(node -e 'console.log(crypto.randomUUID())')"`;

function evidenceLine(server: ReferenceServer): string {
  const { kid, source, file } = server.evidence;
  switch (source) {
    case 'configured':
      return `Evidence (signed by ${kid}, from PROGRAMRUN_EVIDENCE_KEY):`;
    case 'kept':
      return `Evidence (signed by ${kid}, kept in ${file ?? 'the data directory'}):`;
    case 'process':
      return `Evidence (signed by ${kid}, a key made for this process: set PROGRAMRUN_EVIDENCE_KEY to keep one):`;
  }
}

/**
 * What the reference server prints once it listens: where, which store, the test key, and
 * ready-to-paste `curl` commands that create a run, follow it, approve it, register a
 * webhook endpoint and export and verify its evidence.
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
  const where =
    server.store.kind === 'memory'
      ? 'memory: nothing is kept when the server stops'
      : `${server.store.kind} at ${server.store.location ?? ''}`;
  return [
    `programrun reference server on ${base} (store: ${server.store.kind}, ${server.scenarios.length} scenarios)`,
    `Scenarios: ${server.scenarioDirectory}`,
    `Data: ${where}`,
    ...(server.store.kind === 'pglite'
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
    '',
    evidenceLine(server),
    `  curl -s ${base}/v1/access-requests ${auth} -H "Content-Type: application/json" \\`,
    `    -d '{"session_id":"<session>","name":"Ana","email":"ana@example.com","company":"Example","use_case":"Audit"}'`,
    `  curl -sf ${base}/v1/program-runs/<id>/evidence ${auth} -o bundle.json`,
    `  npx programrun verify bundle.json --jwks ${base}/v1/evidence-keys`,
    '',
    'Stop with Ctrl-C (SIGINT) or SIGTERM.',
  ];
}
