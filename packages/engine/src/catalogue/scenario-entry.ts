import type { CompiledScenario, InvariantDefinition } from '@programrun/dsl';
import type { JsonObject, Sha256Digest } from '@programrun/evidence';

/** A scenario as the catalogue (`GET /v1/scenarios`) shows it. */
export interface ScenarioEntry {
  readonly object: 'scenario';
  readonly id: string;
  readonly name: string;
  readonly version: string;
  readonly title: string;
  readonly summary: string;
  readonly family: string;
  readonly asset_track: string;
  readonly digest: Sha256Digest;
  readonly duration: {
    readonly min: string;
    readonly max: string;
    readonly calendar: string;
  } | null;
  /** JSON Schema (draft 2020-12) of `inputs`. */
  readonly input_schema: JsonObject;
  /** Valid inputs to start from. */
  readonly example_inputs: JsonObject;
  readonly parties: readonly {
    id: string;
    name: string;
    role: string;
    kind: string;
    availability: string;
  }[];
  readonly stages: readonly {
    id: string;
    title: string;
    steps: readonly { id: string; kind: string; title: string; party: string | null }[];
  }[];
  readonly policy: readonly { id: string; description: string; effect: string }[];
  readonly controls: readonly { id: string; title: string; category: string; step: string }[];
  /** Proven over every path at load: `kind` says which fields it has. */
  readonly invariants: readonly CatalogueInvariant[];
}

/** An invariant as the catalogue shows it, tagged with its kind. */
export type CatalogueInvariant = { readonly id: string; readonly description: string } & (
  | {
      readonly kind: 'precedence';
      readonly before: readonly string[];
      readonly then: readonly string[];
    }
  | { readonly kind: 'exclusion'; readonly never_together: readonly string[] }
  | {
      readonly kind: 'response';
      readonly after: readonly string[];
      readonly eventually: readonly string[];
    }
  | {
      readonly kind: 'approval';
      readonly approved: readonly string[];
      readonly by_at_least: number;
      readonly maker_checker: boolean;
    }
);

/** The catalogue form of a declared invariant. */
function catalogueInvariant(invariant: InvariantDefinition): CatalogueInvariant {
  const { id, description } = invariant;
  if ('never_together' in invariant)
    return { id, description, kind: 'exclusion', never_together: invariant.never_together };
  if ('after' in invariant)
    return {
      id,
      description,
      kind: 'response',
      after: invariant.after,
      eventually: invariant.eventually,
    };
  if ('approved' in invariant)
    return {
      id,
      description,
      kind: 'approval',
      approved: invariant.approved,
      by_at_least: invariant.by_at_least,
      maker_checker: invariant.maker_checker,
    };
  return { id, description, kind: 'precedence', before: invariant.before, then: invariant.then };
}

/**
 * The catalogue entry of a compiled scenario.
 *
 * @example
 * ```ts
 * describeScenario(engine.scenarios.get('wallet-delivery@v1')).input_schema.required; // ['amount', …]
 * ```
 */
export function describeScenario(compiled: CompiledScenario): ScenarioEntry {
  const { definition } = compiled;
  return {
    object: 'scenario',
    id: compiled.id,
    name: definition.scenario,
    version: definition.version,
    title: definition.title,
    summary: definition.summary,
    family: definition.family,
    asset_track: definition.asset_track,
    digest: compiled.digest,
    duration: definition.duration ?? null,
    input_schema: definition.inputs as JsonObject,
    example_inputs: definition.example_inputs as JsonObject,
    parties: Object.entries(definition.parties).map(([id, party]) => ({
      id,
      name: party.name,
      role: party.role,
      kind: party.kind,
      availability: party.availability,
    })),
    stages: definition.stages.map((stage) => ({
      id: stage.id,
      title: stage.title,
      steps: stage.steps.map((step) => ({
        id: step.id,
        kind: step.kind,
        title: step.title,
        party: 'party' in step ? (step.party ?? null) : null,
      })),
    })),
    policy: definition.policy.map((rule) => ({
      id: rule.id,
      description: rule.description,
      effect: rule.otherwise,
    })),
    controls: definition.controls.map((control) => ({
      id: control.id,
      title: control.title,
      category: control.category,
      step: control.step,
    })),
    invariants: definition.invariants.map(catalogueInvariant),
  };
}
