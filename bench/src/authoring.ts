// The scenario author's and QA's tools, timed:
// 1. `programrun validate scenarios/*` wall time (the built binary, a fresh Node process
//    per run), against loading and compiling the same files in this process and against a
//    bare `node` start, so the figure separates our work from process start-up.
// 2. checkScenario traces/s on qr-merchant-settlement@v1 (default options), against
//    running the same number of random traces with runTrace alone (no property checks),
//    rounds alternating in this process.
// Usage: pnpm --filter @programrun/bench bench:authoring [ROUNDS=5 RUNS=100]
// Needs the packages built: npx turbo run build --filter=@programrun/bench^...
import { execFile } from 'node:child_process';
import { readdir } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { compile } from '@programrun/dsl';
import { loadScenarioFile } from '@programrun/dsl/node';
import {
  checkScenario,
  fc,
  inputsArbitrary,
  runTrace,
  signalPlanArbitrary,
} from '@programrun/testing';
import { loadCompiled } from './scenario.js';
import { format, median } from './stats.js';

const run = promisify(execFile);
const rounds = Number(process.env.ROUNDS ?? 5);
const numRuns = Number(process.env.RUNS ?? 100);
const root = fileURLToPath(new URL('../../', import.meta.url));
const bin = `${root}packages/cli/dist/bin.js`;
const scenarioDir = `${root}scenarios/`;
const files = (await readdir(scenarioDir))
  .filter((name) => name.endsWith('.yaml'))
  .sort()
  .map((name) => scenarioDir + name);

/** Milliseconds `work` takes. */
async function timed(work: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await work();
  return performance.now() - started;
}

// 1. validate
const cli: number[] = [];
const library: number[] = [];
const bare: number[] = [];
for (let round = 0; round < rounds; round += 1) {
  cli.push(await timed(() => run(process.execPath, [bin, 'validate', ...files])));
  library.push(
    await timed(async () => {
      for (const file of files) {
        const loaded = await loadScenarioFile(file);
        if (!loaded.ok) throw new Error(`${file} does not load`);
        compile(loaded.scenario);
      }
    }),
  );
  bare.push(await timed(() => run(process.execPath, ['-e', ''])));
}

// 2. checkScenario
const compiled = await loadCompiled('qr-merchant-settlement@v1');
const checked: number[] = [];
const raw: number[] = [];
let tracesPerCheck = 0;
for (let round = 0; round < rounds; round += 1) {
  const seed = 1000 + round;
  const started = performance.now();
  const report = await checkScenario(compiled, { numRuns, seed });
  const seconds = (performance.now() - started) / 1000;
  tracesPerCheck = report.traces;
  checked.push(report.traces / seconds);
  const samples = fc.sample(fc.tuple(inputsArbitrary(compiled), signalPlanArbitrary()), {
    numRuns: report.traces,
    seed,
  });
  const rawStarted = performance.now();
  for (const [index, [inputs, plan]] of samples.entries()) {
    await runTrace(compiled, inputs, plan, `bench-${seed}-${index}`);
  }
  raw.push(samples.length / ((performance.now() - rawStarted) / 1000));
}

const validateMs = median(cli);
const libraryMs = median(library);
const nodeMs = median(bare);
console.log(`programrun authoring tools; ${rounds} rounds, medians; ${files.length} scenarios`);
console.log('');
console.log('| measure | median | per round | vs |');
console.log('| --- | ---: | --- | --- |');
console.log(
  `| programrun validate scenarios/* (wall, new process) | ${format(validateMs)} ms | ${cli.map((value) => format(value)).join(' / ')} | ${format(validateMs / libraryMs, 1)}× load+compile in process, ${format(validateMs / nodeMs, 1)}× bare node start |`,
);
console.log(
  `| load + compile the same files in process | ${format(libraryMs)} ms | ${library.map((value) => format(value)).join(' / ')} | |`,
);
console.log(
  `| bare node start (node -e '') | ${format(nodeMs)} ms | ${bare.map((value) => format(value)).join(' / ')} | |`,
);
console.log(
  `| checkScenario traces/s, qr-merchant-settlement@v1, numRuns ${numRuns} (${tracesPerCheck} traces per check) | ${format(median(checked))} | ${checked.map((value) => format(value)).join(' / ')} | ${format((100 * median(checked)) / median(raw), 1)} % of runTrace alone |`,
);
console.log(
  `| runTrace alone, same count of random traces | ${format(median(raw))} | ${raw.map((value) => format(value)).join(' / ')} | |`,
);
