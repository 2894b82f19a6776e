// Evidence costs. (1) Canonicalize + hash + sign a ~20 KB bundle through programrun's
// guarded layer vs json-canonicalize + node:crypto called directly, same process. (2) The
// latency of GET /v1/program-runs/{id}/evidence for a completed reserve-usd-cycle@v1 run.
// Usage: pnpm --filter @programrun/bench bench:evidence  [ROUNDS=7 ITERATIONS=400 EXPORTS=300]
import { createHash, createPrivateKey, sign } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { canonicalize as canonicalizeUnchecked } from 'json-canonicalize';
import {
  base64,
  base64url,
  canonicalize,
  createSigner,
  EVIDENCE_PAYLOAD_TYPE,
  preAuthEncoding,
  sha256Digest,
  toStatement,
  utf8,
  type EvidenceBundle,
  type EvidenceStatement,
} from '@programrun/evidence';
import { createHandler } from '@programrun/http';
import { createNodeListener } from '@programrun/http/node';
import { completedRun } from './completed-run.js';
import { format, median, peakRssMiB } from './stats.js';

const rounds = Number(process.env.ROUNDS ?? 7);
const iterations = Number(process.env.ITERATIONS ?? 400);
const exports = Number(process.env.EXPORTS ?? 300);

const { engine, accounts, scope, runId, keys } = await completedRun('reserve-usd-cycle@v1');
const full = (
  JSON.parse(
    new TextDecoder().decode(base64.decode((await engine.exportEvidence(scope, runId)).payload)),
  ) as EvidenceStatement
).predicate;

// A real bundle cut to ~20 KB: the first records of the lifecycle, the views of those
// records only, and the head moved to match (what an export made at that point would hold).
let records = full.lifecycle.records;
const sized = (kept: typeof records): EvidenceBundle => {
  const last = kept.at(-1)?.sequence ?? 0;
  const upTo = <T extends object>(items: readonly T[]): T[] =>
    items.filter((item) => Number((item as { sequence?: unknown }).sequence) <= last);
  return {
    ...full,
    route_selections: upTo(full.route_selections),
    delivery_objects: upTo(full.delivery_objects),
    recorded_facts: upTo(full.recorded_facts),
    approvals: upTo(full.approvals),
    handoffs: upTo(full.handoffs),
    lifecycle: { records: kept, length: kept.length, chain_head: kept.at(-1)?.hash ?? null },
  };
};
while (canonicalize(toStatement(sized(records))).length > 20_480) records = records.slice(0, -1);
const bundle = sized(records);
const statement = toStatement(bundle);
const size = canonicalize(statement).length;

const activeKey = keys.entries[0]!.key;
const signer = createSigner(activeKey);
const keyObject = createPrivateKey({
  key: Buffer.concat([
    Buffer.from('302e020100300506032b657004220420', 'hex'),
    Buffer.from(base64url.decode(activeKey.d)),
  ]),
  format: 'der',
  type: 'pkcs8',
});

function throughProgramrun(): string {
  const payload = utf8(canonicalize(statement));
  sha256Digest(payload);
  return base64.encode(signer.sign(preAuthEncoding(EVIDENCE_PAYLOAD_TYPE, payload)));
}

function direct(): string {
  const payload = Buffer.from(canonicalizeUnchecked(statement));
  createHash('sha256').update(payload).digest('hex');
  const type = Buffer.from(EVIDENCE_PAYLOAD_TYPE);
  const pae = Buffer.concat([
    Buffer.from(`DSSEv1 ${type.length} ${EVIDENCE_PAYLOAD_TYPE} ${payload.length} `),
    payload,
  ]);
  return sign(null, pae, keyObject).toString('base64');
}

if (throughProgramrun() !== direct()) throw new Error('the two paths sign different bytes');
const rate = (work: () => unknown): number => {
  const start = performance.now();
  for (let index = 0; index < iterations; index += 1) work();
  return iterations / ((performance.now() - start) / 1000);
};
rate(throughProgramrun);
rate(direct);
const ours: number[] = [];
const baseline: number[] = [];
for (let round = 0; round < rounds; round += 1) {
  baseline.push(rate(direct));
  ours.push(rate(throughProgramrun));
}
console.log(
  `Canonicalize + hash + sign a ${format(size)}-byte bundle (${records.length} records), ${rounds} rounds of ${iterations}`,
);
console.log(
  `  json-canonicalize + node:crypto   median ${format(median(baseline))} /s  (${format(1e6 / median(baseline), 0)} µs)`,
);
console.log(
  `  programrun (guarded JCS, Signer)  median ${format(median(ours))} /s  (${format(1e6 / median(ours), 0)} µs)`,
);
console.log(
  `  programrun / direct               ${format((median(ours) / median(baseline)) * 100, 1)} %  (target ≥ 60 %)`,
);

// Export over HTTP of the completed run, one request at a time.
const { secret: KEY } = await accounts.apiKeys.create({
  account: scope.account,
  environment: 'test',
});
const handler = createHandler({ engine, accounts, rateLimit: false });
const server = createServer(createNodeListener(handler));
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/program-runs/${runId}/evidence`;
const latencies: number[] = [];
let bytes = 0;
for (let index = 0; index < exports + 20; index += 1) {
  const start = performance.now();
  const response = await fetch(url, { headers: { authorization: `Bearer ${KEY}` } });
  const body = await response.arrayBuffer();
  if (response.status !== 200) throw new Error(`export answered ${response.status}`);
  if (index >= 20) latencies.push(performance.now() - start);
  bytes = body.byteLength;
}
server.close();
const sorted = [...latencies].sort((a, b) => a - b);
console.log(
  `GET /v1/program-runs/{id}/evidence, completed reserve-usd-cycle@v1 (${full.lifecycle.length} records, ${format(bytes)}-byte envelope), ${exports} sequential requests`,
);
console.log(
  `  median ${format(median(latencies), 2)} ms   p90 ${format(sorted[Math.floor(sorted.length * 0.9)]!, 2)} ms   p99 ${format(sorted[Math.floor(sorted.length * 0.99)]!, 2)} ms`,
);
console.log(`  peak RSS ${peakRssMiB()} MiB`);
