// Throughput of checkScenario: traces per second with default options (100 cases per
// property, every property, a random seed), the median of several runs.
//
//   npx tsx scripts/bench-check.ts [scenario.yaml] [--repeat 5]
//
// Runs against the packages' sources: it restarts itself with the @programrun/source
// condition when started without it.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const CONDITION = '--conditions=@programrun/source';
if (!process.execArgv.includes(CONDITION)) {
  const result = spawnSync(
    process.execPath,
    [CONDITION, ...process.execArgv, fileURLToPath(import.meta.url), ...process.argv.slice(2)],
    { stdio: 'inherit' },
  );
  process.exit(result.status ?? 1);
}

const { checkScenario, formatCheckReport, loadCompiledScenario } = await import('../src/index.js');
const args = process.argv.slice(2);
const repeatAt = args.indexOf('--repeat');
const repeat = repeatAt >= 0 ? Number(args[repeatAt + 1]) : 5;
const file =
  args.find((arg, index) => !arg.startsWith('--') && index !== repeatAt + 1) ??
  fileURLToPath(new URL('../../../scenarios/qr-merchant-settlement@v1.yaml', import.meta.url));

const compiled = await loadCompiledScenario(file);
const median = (values: number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const rates: number[] = [];
const durations: number[] = [];
console.log(
  `checkScenario ${compiled.id}, default options, ${repeat} runs (node ${process.version})`,
);
for (let run = 1; run <= repeat; run += 1) {
  const report = await checkScenario(compiled);
  const rate = report.traces / (report.durationMs / 1000);
  rates.push(rate);
  durations.push(report.durationMs);
  console.log(
    `  run ${run}: seed ${report.seed}, ${report.traces} traces in ${report.durationMs} ms = ${rate.toFixed(0)} traces/s${report.passed ? '' : ' (FAILED)'}`,
  );
  if (!report.passed) console.log(formatCheckReport(report));
}
console.log(
  `median: ${median(rates).toFixed(0)} traces/s, ${median(durations)} ms per checkScenario`,
);
