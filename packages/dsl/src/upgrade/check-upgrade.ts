// Whether the runs of one scenario version can move to the next: the files loaded, the
// migration read, and for each step of the old version a run can wait at, where its runs go
// and what that must not break (state-obligations.ts).
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex } from '@noble/hashes/utils.js';
import type { Sha256Digest } from '@programrun/evidence';
import { describePath, findPath } from '../graph/flow-graph.js';
import { loadScenario } from '../load-scenario.js';
import { sortProblems, type Problem, type ProblemCode } from '../problem.js';
import { schemaProblems } from '../source/schema-problems.js';
import { YamlSource } from '../source/yaml-source.js';
import { completedBefore } from './completed-before.js';
import { inputProblems } from './input-transforms.js';
import { migrationSchema, type MigrationDefinition } from './migration-schema.js';
import { stateProblems } from './state-obligations.js';
import { stepPath, waitsAt, type Side } from './upgrade-side.js';
import { waitDeadline, type WaitDeadline } from './wait-deadline.js';
import { parseDuration } from '../schema/duration.js';

/** A scenario or migration file's text, and its name for problems. */
export interface UpgradeFile {
  readonly text: string;
  readonly file?: string;
}

/** What happens to the runs waiting at one step of the old version. */
export interface UpgradeState {
  /** The old version's waiting step. */
  readonly state: string;
  /** The new version's step they wait at after the upgrade; absent when they stay. */
  readonly mapsTo?: string;
  /** True when the migration keeps them on the old version (`stay`). */
  readonly stays?: true;
  /**
   * The wait's deadline moves (the migration's `deadlines: new_version`): its timer, the old
   * version's duration and the new one's; a moved run's deadline is its wait's start plus `to`.
   */
  readonly deadline?: {
    readonly kind: WaitDeadline['kind'];
    readonly from: string;
    readonly to: string;
  };
  /** Why the move is not safe; empty when it is. */
  readonly problems: readonly Problem[];
}

/** The result of {@link checkUpgrade}. */
export interface UpgradeReport {
  /** True when every state maps safely (or stays) and every file loaded. */
  readonly ok: boolean;
  /** `<scenario>@<version>` of each side, when it loaded. */
  readonly from?: string;
  readonly to?: string;
  /** The digest of each side, when it loaded: what an upgrade of stored runs checks it has. */
  readonly fromDigest?: Sha256Digest;
  readonly toDigest?: Sha256Digest;
  /** Old step id → new step id, for steps that only changed name (the migration's). */
  readonly renames: Readonly<Record<string, string>>;
  /** Old party id → new party id, for partners that only changed name (the migration's). */
  readonly parties: Readonly<Record<string, string>>;
  /**
   * New input field → the CEL expression (over the old run) whose value each moved run
   * gets under it: the migration's `context.inputs`.
   */
  readonly inputs: Readonly<Record<string, string>>;
  /** The sha-256 of the migration file's text; null without one. */
  readonly migrationDigest: Sha256Digest | null;
  /** Each waiting step of the old version a run can reach, in flow order. */
  readonly states: readonly UpgradeState[];
  /** Every problem: the files' load problems, then each state's, sorted by file and line. */
  readonly problems: readonly Problem[];
}

/**
 * Proves that runs of `from` can move to `to`: for every step of `from` a run can wait at,
 * with what it must (and may) already have done, that it maps to a step of `to` of the same
 * kind (a pending handoff keeps its id, party and action, so the partner sees no new
 * idempotency key), that no handoff it may have confirmed is requested again, that every
 * compensation it may have registered still exists, that the legs it may have posted are
 * unchanged, and that every precedence, exclusion and response invariant of `to` holds on
 * every path of `to` from there given what it has done. Each failure is a problem at its
 * line and column (in the migration, or the scenario whose step or invariant it names)
 * with the old state and the counterexample path.
 *
 * @example
 * ```ts
 * const report = checkUpgrade({ text: v1Text, file: 'bank-payout@v1.yaml' }, { text: v2Text, file: 'bank-payout@v2.yaml' });
 * report.ok; // true when every waiting run can move (or stays)
 * ```
 */
export function checkUpgrade(
  fromFile: UpgradeFile,
  toFile: UpgradeFile,
  migrationFile?: UpgradeFile,
): UpgradeReport {
  const loaded = [fromFile, toFile].map((file) => ({
    source: new YamlSource(file.text, file.file),
    result: loadScenario(file.text, file.file === undefined ? {} : { file: file.file }),
  }));
  const loadProblems = loaded.flatMap(({ result }) => result.problems);
  const migrationSource = migrationFile && new YamlSource(migrationFile.text, migrationFile.file);
  const migration = migrationSource ? parseMigration(migrationSource) : undefined;
  if (loadProblems.length > 0 || (migration && !migration.ok)) {
    return {
      ok: false,
      states: [],
      renames: {},
      parties: {},
      inputs: {},
      migrationDigest: migrationFile ? textDigest(migrationFile.text) : null,
      problems: sortProblems([
        ...loadProblems,
        ...(migration?.ok === false ? migration.problems : []),
      ]),
    };
  }
  const [from, to] = loaded.map(({ source, result }) => ({ source, scenario: result.scenario! }));
  const definition = migration?.definition;
  const problems: Problem[] = [];
  const inMigration = (code: ProblemCode, message: string, path: (string | number)[]) =>
    migrationSource!.problemAt(code, message, path);
  if (definition) problems.push(...migrationMismatches(definition, from!, to!, inMigration));
  const states = problems.length > 0 ? [] : upgradeStates(from!, to!, definition, migrationSource);
  problems.push(...states.flatMap((state) => state.problems));
  problems.push(...inputProblems(from!, to!, definition, migrationSource));
  return {
    ok: problems.length === 0,
    from: from!.scenario.id,
    to: to!.scenario.id,
    fromDigest: from!.scenario.digest,
    toDigest: to!.scenario.digest,
    renames: { ...(definition?.renames.steps ?? {}) },
    parties: { ...(definition?.renames.parties ?? {}) },
    inputs: { ...(definition?.context.inputs ?? {}) },
    migrationDigest: migrationFile ? textDigest(migrationFile.text) : null,
    states,
    problems: sortProblems(problems),
  };
}

/** `sha256:` and the hex sha-256 of a file's UTF-8 text. */
const textDigest = (text: string): Sha256Digest =>
  `sha256:${bytesToHex(sha256(new TextEncoder().encode(text)))}`;

/** The migration file parsed, or its problems. */
function parseMigration(
  source: YamlSource,
): { ok: true; definition: MigrationDefinition } | { ok: false; problems: Problem[] } {
  if (source.syntaxProblems.length > 0) return { ok: false, problems: [...source.syntaxProblems] };
  const parsed = migrationSchema.safeParse(source.data);
  if (!parsed.success)
    return { ok: false, problems: schemaProblems(parsed.error.issues, source, source.data) };
  return { ok: true, definition: parsed.data };
}

/** A migration for other scenarios or versions, or naming steps neither version has. */
function migrationMismatches(
  migration: MigrationDefinition,
  from: Side,
  to: Side,
  problemAt: (code: ProblemCode, message: string, path: (string | number)[]) => Problem,
): Problem[] {
  const problems: Problem[] = [];
  const { definition: old } = from.scenario;
  const { definition: next } = to.scenario;
  if (migration.scenario !== old.scenario || migration.scenario !== next.scenario)
    problems.push(
      problemAt(
        'upgrade_unknown_step',
        `the migration is for "${migration.scenario}", not "${old.scenario}" → "${next.scenario}"`,
        ['scenario'],
      ),
    );
  if (migration.from !== old.version || migration.to !== next.version)
    problems.push(
      problemAt(
        'upgrade_unknown_step',
        `the migration moves ${migration.from} to ${migration.to}, not ${old.version} to ${next.version}`,
        ['from'],
      ),
    );
  const oldSteps = from.scenario.graph.steps;
  const newSteps = to.scenario.graph.steps;
  const named = (kind: 'old' | 'new', id: string, path: (string | number)[]) => {
    const steps = kind === 'old' ? oldSteps : newSteps;
    if (!steps.has(id))
      problems.push(
        problemAt(
          'upgrade_unknown_step',
          `"${id}" is not a step of ${kind === 'old' ? from.scenario.id : to.scenario.id}`,
          path,
        ),
      );
  };
  for (const [old, renamed] of Object.entries(migration.renames.steps)) {
    named('old', old, ['renames', 'steps', old]);
    named('new', renamed, ['renames', 'steps', old]);
  }
  for (const [old, target] of Object.entries(migration.states)) {
    named('old', old, ['states', old]);
    named('new', target, ['states', old]);
  }
  migration.stay.forEach((old, index) => named('old', old, ['stay', index]));
  for (const old of Object.keys(migration.deadlines)) named('old', old, ['deadlines', old]);
  for (const [old, renamed] of Object.entries(migration.renames.parties)) {
    for (const [side, id] of [
      [from, old],
      [to, renamed],
    ] as const) {
      if (id in side.scenario.definition.parties) continue;
      problems.push(
        problemAt('upgrade_unknown_party', `"${id}" is not a party of ${side.scenario.id}`, [
          'renames',
          'parties',
          old,
        ]),
      );
    }
  }
  return problems;
}

/** Each waiting step of the old version with where its runs go and why that is unsafe. */
function upgradeStates(
  from: Side,
  to: Side,
  migration: MigrationDefinition | undefined,
  migrationSource: YamlSource | undefined,
): UpgradeState[] {
  const oldGraph = from.scenario.graph;
  const newGraph = to.scenario.graph;
  const renamed = (id: string) => migration?.renames.steps[id] ?? id;
  const renamedParty = (id: string) => migration?.renames.parties[id] ?? id;
  const done = completedBefore(oldGraph);
  const states: UpgradeState[] = [];
  for (const state of oldGraph.order) {
    const before = done.get(state);
    if (!before || !waitsAt(oldGraph, state)) continue;
    if (migration?.stay.includes(state)) {
      states.push({ state, stays: true, problems: [] });
      continue;
    }
    const explicit = migration?.states[state];
    const target = explicit ?? renamed(state);
    // Where a problem about the mapping itself points: the line that maps, else the new step.
    const mappingAt = (code: ProblemCode, message: string): Problem =>
      migrationSource && explicit !== undefined
        ? migrationSource.problemAt(code, message, ['states', state])
        : migrationSource && migration?.renames.steps[state] !== undefined
          ? migrationSource.problemAt(code, message, ['renames', 'steps', state])
          : newGraph.steps.has(target)
            ? to.source.problemAt(code, message, stepPath(to.scenario, target))
            : from.source.problemAt(code, message, stepPath(from.scenario, state));
    const reached = describePath(findPath(oldGraph, state) ?? [{ step: state, via: 'start' }]);
    const inputs = migration?.context.inputs ?? {};
    const inputAt = (field: string, code: ProblemCode, message: string): Problem =>
      migrationSource!.problemAt(code, message, ['context', 'inputs', field]);
    const context = {
      from,
      to,
      state,
      target,
      before,
      reached,
      renamed,
      renamedParty,
      mappingAt,
      inputs,
      inputAt,
    };
    const moved = movedDeadline(from, to, state, target, migration, migrationSource, reached);
    states.push({
      state,
      mapsTo: target,
      ...(moved.deadline ? { deadline: moved.deadline } : {}),
      problems: [...stateProblems(context), ...moved.problems],
    });
  }
  return states;
}

/**
 * The deadline of the runs waiting at `state` when the migration gives them the new
 * version's (`deadlines: new_version`), refused when it is shorter: a run that has waited
 * longer than the new duration would be due before the upgrade.
 */
function movedDeadline(
  from: Side,
  to: Side,
  state: string,
  target: string,
  migration: MigrationDefinition | undefined,
  migrationSource: YamlSource | undefined,
  reached: string,
): { deadline?: NonNullable<UpgradeState['deadline']>; problems: Problem[] } {
  if (migration?.deadlines[state] !== 'new_version') return { problems: [] };
  const old = waitDeadline(from.scenario, state);
  const next = waitDeadline(to.scenario, target);
  if (!old || !next || old.kind !== next.kind) return { problems: [] };
  if (parseDuration(next.duration) < parseDuration(old.duration))
    return {
      problems: [
        migrationSource!.problemAt(
          'upgrade_deadline_shortened',
          `runs waiting at "${state}" (${reached}) have ${old.duration} on ${from.scenario.id}; counted from when they started waiting, ${to.scenario.id}'s ${next.duration} would put the deadline of one that has waited longer in the past`,
          ['deadlines', state],
        ),
      ],
    };
  return { deadline: { kind: old.kind, from: old.duration, to: next.duration }, problems: [] };
}
