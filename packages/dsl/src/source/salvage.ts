import type { z } from 'zod';
import { scenarioSchema, type ScenarioDefinition } from '../schema/scenario-schema.js';
import { valueAt } from './schema-problems.js';

type Path = (string | number)[];
type Mutable = Record<string | number, unknown>;

/** A definition rebuilt around schema errors so the other checks can still run. */
export interface Salvage {
  readonly definition: ScenarioDefinition;
  /** Paths replaced by placeholders: problems under them are not reported twice. */
  readonly repaired: readonly Path[];
  /** True when a stage or step was replaced, so flow checks would be unreliable. */
  readonly flowRepaired: boolean;
  /** True when `inputs` was replaced, so expressions and examples cannot be checked. */
  readonly inputsRepaired: boolean;
}

const IDENTIFIER = /^[a-z][a-z0-9_]{0,62}$/;
const keepId = (raw: unknown, fallback: string): string => {
  const id = valueAt(raw, ['id']);
  return typeof id === 'string' && IDENTIFIER.test(id) ? id : fallback;
};
const placeholderStep = (raw: unknown, fallback: string): unknown => ({
  id: keepId(raw, fallback),
  kind: 'record',
  title: 'placeholder',
  record: 'placeholder',
  data: {},
});

const TOP_LEVEL_PLACEHOLDERS: Readonly<Record<string, unknown>> = {
  scenario: 'placeholder',
  version: 'v1',
  title: 'placeholder',
  summary: 'placeholder',
  family: 'wallet_delivery',
  asset_track: 'public_demo',
  inputs: { type: 'object' },
  example_inputs: {},
  parties: {},
  policy: [],
  controls: [],
  invariants: [],
  compensations: [],
  legs: [],
};

/** Replaces the smallest whole item around `path`; returns the repaired path or undefined. */
function repair(data: Mutable, path: Path): Path | undefined {
  const [top, index, inner, innerIndex] = path;
  if (typeof top !== 'string') return undefined;
  const list = data[top] as Mutable | undefined;
  if (top === 'stages') {
    if (!Array.isArray(list) || typeof index !== 'number') return undefined;
    const stage = list[index] as Mutable | undefined;
    if (inner === 'steps' && typeof innerIndex === 'number' && Array.isArray(stage?.steps)) {
      stage.steps[innerIndex] = placeholderStep(
        stage.steps[innerIndex],
        `placeholder_${index}_${innerIndex}`,
      );
      return ['stages', index, 'steps', innerIndex];
    }
    const steps =
      Array.isArray(stage?.steps) && stage.steps.length > 0
        ? stage.steps
        : [placeholderStep(undefined, `placeholder_${index}`)];
    list[index] = { id: keepId(stage, `placeholder_stage_${index}`), title: 'placeholder', steps };
    return ['stages', index];
  }
  if (typeof index === 'number' && Array.isArray(list)) {
    const raw: unknown = list[index];
    const id = keepId(raw, `placeholder_${top}_${index}`);
    const placeholders: Record<string, unknown> = {
      compensations: placeholderStep(raw, id),
      policy: { id, description: 'placeholder', when: 'true', otherwise: 'deny' },
      controls: { id, title: 'placeholder', category: 'compliance', step: id },
      invariants: { id, description: 'placeholder', before: [id], then: [id] },
      legs: { id, step: id, direction: 'debit', amount: 'money("0")', currency: '"XXX"' },
    };
    if (!(top in placeholders)) return undefined;
    list[index] = placeholders[top];
    return [top, index];
  }
  if (top === 'parties' && typeof index === 'string' && list && typeof list === 'object') {
    list[index] = { name: 'placeholder', role: 'operations', kind: 'appointed' };
    return ['parties', index];
  }
  if (top === 'duration') {
    delete data.duration;
    return ['duration'];
  }
  if (top in TOP_LEVEL_PLACEHOLDERS) {
    data[top] = structuredClone(TOP_LEVEL_PLACEHOLDERS[top]);
    return [top];
  }
  return undefined;
}

/**
 * Rebuilds a schema-valid definition from data that failed the schema: unknown keys are
 * dropped and each broken item (step, stage, rule, party…) becomes a placeholder that
 * keeps its id. Returns undefined when the document is too broken to salvage.
 */
export function salvageDefinition(
  data: unknown,
  issues: readonly z.core.$ZodIssue[],
): Salvage | undefined {
  if (typeof data !== 'object' || data === null || Array.isArray(data)) return undefined;
  const copy = structuredClone(data) as Mutable;
  const repaired: Path[] = [];
  for (const issue of issues) {
    const path = issue.path.filter(
      (segment): segment is string | number => typeof segment !== 'symbol',
    );
    if (issue.code === 'unrecognized_keys') {
      const holder = valueAt(copy, path) as Mutable | undefined;
      for (const key of issue.keys) if (holder) delete holder[key];
      continue;
    }
    const fixed = repair(copy, path);
    if (!fixed) return undefined;
    repaired.push(fixed);
  }
  const reparsed = scenarioSchema.safeParse(copy);
  if (!reparsed.success) return undefined;
  return {
    definition: reparsed.data,
    repaired,
    flowRepaired: repaired.some((path) => path[0] === 'stages' || path[0] === 'compensations'),
    inputsRepaired: repaired.some((path) => path[0] === 'inputs'),
  };
}

/** True when `path` lies under any repaired path. */
export function isUnderRepaired(
  path: readonly (string | number)[],
  repaired: readonly Path[],
): boolean {
  return repaired.some((prefix) => prefix.every((segment, index) => path[index] === segment));
}
