import type { CompiledScenario, RunContext, RunEnvironment } from '@programrun/dsl';
import type { ActivationPosture, PosturePartyRecord, PostureRecord } from './run-record.js';

/**
 * The activation posture of runs that need none (test runs, tracks other than restricted).
 */
export const NO_ACTIVATION_REQUIRED: ActivationPosture = {
  required: false,
  status: 'not_required',
  reference: null,
  activated_at: null,
};

type Holdings = ReadonlyMap<
  string,
  { readonly steps: readonly string[]; readonly stages: readonly string[] }
>;
const holdingsCache = new WeakMap<CompiledScenario, Holdings>();

/** Which steps and stages each party holds: fixed per scenario, so computed once. */
function holdingsOf(compiled: CompiledScenario): Holdings {
  const cached = holdingsCache.get(compiled);
  if (cached) return cached;
  const holdings = new Map<string, { steps: Set<string>; stages: Set<string> }>();
  const hold = (party: string | undefined, step: string, stage: string | null): void => {
    if (party === undefined) return;
    const entry = holdings.get(party) ?? { steps: new Set(), stages: new Set() };
    entry.steps.add(step);
    if (stage !== null) entry.stages.add(stage);
    holdings.set(party, entry);
  };
  for (const step of compiled.graph.steps.values()) {
    hold(step.party, step.id, step.stage);
    const definition = step.definition;
    if (definition.kind === 'approval')
      for (const party of definition.approvers) hold(party, step.id, step.stage);
    if (definition.kind === 'check')
      for (const party of definition.review?.approvers ?? []) hold(party, step.id, step.stage);
  }
  const result: Holdings = new Map(
    [...holdings].map(([party, entry]) => [
      party,
      { steps: [...entry.steps], stages: [...entry.stages] },
    ]),
  );
  holdingsCache.set(compiled, result);
  return result;
}

/**
 * The operating posture of a run: environment, asset track, how steps execute, each
 * party with the steps and stages it holds and whether that stage is live, simulated or
 * not live, and the routes chosen so far.
 */
export function computePosture(
  compiled: CompiledScenario,
  environment: RunEnvironment,
  context: RunContext,
  activation: ActivationPosture,
): PostureRecord {
  const { definition } = compiled;
  const holdings = holdingsOf(compiled);
  const notExecutable =
    environment === 'live' && definition.asset_track === 'production_placeholder';
  const parties: PosturePartyRecord[] = Object.entries(definition.parties).map(([id, party]) => ({
    id,
    name: party.name,
    role: party.role,
    kind: party.kind,
    status:
      party.kind !== 'appointed'
        ? environment === 'test'
          ? 'simulated'
          : 'live'
        : environment === 'test'
          ? 'simulated'
          : party.availability === 'not_live' || notExecutable
            ? 'not_live'
            : 'live',
    steps: holdings.get(id)?.steps ?? [],
    stages: holdings.get(id)?.stages ?? [],
  }));
  return {
    environment,
    asset_track: definition.asset_track,
    execution:
      environment === 'test' ? 'simulated' : notExecutable ? 'not_executable' : 'partner_executed',
    activation,
    parties,
    routes: Object.entries(context.route_selections).map(([step, selection]) => ({
      step,
      selected: selection.selected,
      reason: selection.reason,
    })),
  };
}
