// Loads every scenario under scenarios/ and drives its happy path: every handoff
// confirmed with its simulation.data, every approval approved by distinct approvers,
// every timer fired. Prints problems or the fact sequence of each run.
// Usage: pnpm --filter @programrun/dsl check-scenarios [name-filter]
import { readFile, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import {
  compile,
  formatProblem,
  loadScenario,
  type CompiledScenario,
  type RunEvent,
} from '../src/index.js';

const directory = new URL('../../../scenarios/', import.meta.url).pathname;
const filter = process.argv[2] ?? '';

function drive(compiled: CompiledScenario): string[] {
  const at = '2026-01-01T00:00:00.000Z';
  let result = compiled.start({
    environment: 'test',
    inputs: compiled.definition.example_inputs as never,
  });
  const lines = result.facts.map((fact) => `${fact.type} ${fact.step ?? fact.stage ?? ''}`);
  let approver = 0;
  for (let turn = 0; turn < 100 && result.state.awaiting; turn += 1) {
    const { kind, step, attempt } = result.state.awaiting;
    const definition = compiled.graph.steps.get(step)?.definition;
    const simulated = definition?.kind === 'handoff' ? (definition.simulation?.data ?? {}) : {};
    const data = compiled.evaluator.fields(simulated, result.snapshot.context);
    const partnerData = (data.ok ? data.value : {}) as Record<string, never>;
    const event: RunEvent =
      kind === 'handoff'
        ? {
            type: 'handoff.outcome',
            step,
            outcome: 'confirmed',
            reference: `ref_${step}`,
            data: partnerData,
            at,
          }
        : kind === 'approval'
          ? {
              type: 'approval.decision',
              step,
              decision: 'approve',
              approver: `person_${(approver += 1)}`,
              at,
            }
          : { type: 'timer.fired', step, attempt, at };
    result = compiled.transition(result.snapshot, event);
    if (!result.accepted) {
      lines.push(`!! ${event.type} for ${step} not accepted`);
      break;
    }
    lines.push(...result.facts.map((fact) => `${fact.type} ${fact.step ?? fact.stage ?? ''}`));
  }
  lines.push(
    `=> ${result.state.status}${result.state.ending ? ` ${JSON.stringify(result.state.ending)}` : ''}`,
  );
  return lines;
}

let failed = false;
for (const name of (await readdir(directory))
  .filter((file) => file.endsWith('.yaml') && file.includes(filter))
  .sort()) {
  const file = join(directory, name);
  const loaded = loadScenario(await readFile(file, 'utf8'), { file: `scenarios/${name}` });
  if (!loaded.ok) {
    failed = true;
    console.log(
      `✗ ${name}\n${loaded.problems.map((problem) => `  ${formatProblem(problem)}`).join('\n')}`,
    );
    continue;
  }
  console.log(`✓ ${name}  ${loaded.scenario.digest}`);
  console.log(
    drive(compile(loaded.scenario))
      .map((line) => `    ${line}`)
      .join('\n'),
  );
}
process.exitCode = failed ? 1 : 0;
