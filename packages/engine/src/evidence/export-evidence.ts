import { sealEvidence, type DsseEnvelope } from '@programrun/evidence';
import type { EngineContext } from '../engine-context.js';
import { loadRun } from '../kernel/load-run.js';
import type { Scope } from '../store/store-v1.js';
import { assertLeadLinked, withExportability } from './access-requests.js';
import { buildEvidenceBundle } from './build-evidence-bundle.js';

/**
 * The run's evidence bundle, sealed in a signed DSSE envelope by the keys of the run's
 * environment (`evidence_keys_missing` without them); needs a lead linked to the run's
 * session (`lead_required`).
 */
export async function exportEvidence(
  context: EngineContext,
  scope: Scope,
  runId: string,
): Promise<DsseEnvelope> {
  const keys = context.evidenceKeys.signing(scope.environment);
  const { run, records, now } = await context.transactions.run(async ({ tx }) => {
    const stored = await loadRun(tx, scope, runId);
    await assertLeadLinked(tx, scope, stored.record);
    return {
      run: await withExportability(tx, scope, stored.record),
      records: await tx.listRecords(scope, runId),
      now: await context.clocks.now(tx, scope),
    };
  });
  const bundle = buildEvidenceBundle({
    run,
    records,
    compiled: context.catalogue.get(run.scenario_id),
    kid: keys.signer.kid,
    generatedAt: now.toISOString(),
  });
  return sealEvidence(bundle, keys.signer);
}
