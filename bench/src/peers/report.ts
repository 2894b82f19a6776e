// bench:peers' table: per workload, concurrency and side, the median rate over rounds,
// latency percentiles over every workflow of every round, and per-workflow costs (each the
// median of the rounds' values), then each programrun side ÷ DBOS for every column.
import { format, median } from '../stats.js';
import { quantile, type WindowFigures } from './window.js';

/** One side's figures for one workload and concurrency. */
export interface Summary {
  /** Workflows per second, median of the rounds. */
  readonly rate: number;
  readonly rates: readonly number[];
  readonly p50: number;
  readonly p99: number;
  readonly statements: number;
  readonly commits: number;
  /** Milliseconds of CPU per workflow. */
  readonly nodeCpu: number;
  readonly pgCpu: number;
  readonly walKiB: number;
  readonly rssMiB: number;
}

/** Summarises the rounds of one side. */
export function summarize(rounds: readonly WindowFigures[]): Summary {
  const per = (pick: (figures: WindowFigures) => number) =>
    median(rounds.map((figures) => pick(figures) / figures.workflows));
  const latencies = rounds.flatMap((figures) => figures.latencies);
  const rates = rounds.map((figures) => figures.workflows / figures.seconds);
  return {
    rate: median(rates),
    rates,
    p50: quantile(latencies, 0.5),
    p99: quantile(latencies, 0.99),
    statements: per((figures) => figures.server.statements),
    commits: per((figures) => figures.server.writeCommits),
    nodeCpu: per((figures) => figures.nodeCpuSeconds * 1000),
    pgCpu: per((figures) => figures.server.cpuSeconds * 1000),
    walKiB: per((figures) => figures.server.walBytes / 1024),
    rssMiB: Math.max(...rounds.map((figures) => figures.rssMiB)),
  };
}

const HEADER = [
  'workload',
  'c',
  'side',
  'wf/s',
  'p50 ms',
  'p99 ms',
  'stmts/wf',
  'commits/wf',
  'Node CPU ms/wf',
  'PG CPU ms/wf',
  'WAL KiB/wf',
  'RSS MiB',
];

/** The numeric cells of a summary, in HEADER's order. */
function cells(summary: Summary): string[] {
  return [
    format(summary.rate, summary.rate < 100 ? 1 : 0),
    format(summary.p50, 2),
    format(summary.p99, 2),
    format(summary.statements, 1),
    format(summary.commits, 1),
    format(summary.nodeCpu, 3),
    format(summary.pgCpu, 3),
    format(summary.walKiB, 2),
    format(summary.rssMiB),
  ];
}

/** `side` ÷ `baseline` for each numeric column but RSS. */
function ratios(side: Summary, baseline: Summary): string[] {
  const ratio = (a: number, b: number) =>
    b === 0 || !Number.isFinite(a / b) ? '–' : `${format(a / b, 2)}×`;
  return [
    ratio(side.rate, baseline.rate),
    ratio(side.p50, baseline.p50),
    ratio(side.p99, baseline.p99),
    ratio(side.statements, baseline.statements),
    ratio(side.commits, baseline.commits),
    ratio(side.nodeCpu, baseline.nodeCpu),
    ratio(side.pgCpu, baseline.pgCpu),
    ratio(side.walKiB, baseline.walKiB),
    '–', // one process holds every side: no ratio of its RSS
  ];
}

/** One side's label and figures. */
export interface LabelledSummary {
  readonly label: string;
  readonly summary: Summary;
}

/** Rows of the table being built; `render` pads the columns. */
export class PeersTable {
  readonly #rows: string[][] = [HEADER];
  readonly #roundRatios: string[] = [];

  /**
   * Adds the rows of one workload and concurrency: each side's, the baseline's (DBOS), then
   * each side ÷ the baseline.
   */
  group(
    workload: string,
    concurrency: number,
    sides: readonly LabelledSummary[],
    baseline: LabelledSummary,
  ): void {
    const c = String(concurrency);
    const rows = [...sides, baseline].map(({ label, summary }) => [label, ...cells(summary)]);
    for (const side of sides)
      rows.push([`${side.label} ÷ ${baseline.label}`, ...ratios(side.summary, baseline.summary)]);
    rows.forEach((row, index) =>
      this.#rows.push(index === 0 ? [workload, c, ...row] : ['', '', ...row]),
    );
    for (const side of sides) {
      const perRound = side.summary.rates.map((rate, index) =>
        format(rate / baseline.summary.rates[index]!, 2),
      );
      this.#roundRatios.push(
        `${workload}, c ${c}, ${side.label} ÷ ${baseline.label}: ${perRound.join(', ')}`,
      );
    }
  }

  /** Adds the raw transaction's row. */
  single(workload: string, concurrency: number, side: string, summary: Summary): void {
    this.#rows.push([workload, String(concurrency), side, ...cells(summary)]);
  }

  render(): string {
    const widths = HEADER.map((_, column) =>
      Math.max(...this.#rows.map((row) => row[column]!.length)),
    );
    const lines = this.#rows.map((row) =>
      row
        .map((cell, column) =>
          column < 3 ? cell.padEnd(widths[column]!) : cell.padStart(widths[column]!),
        )
        .join('  '),
    );
    lines.splice(1, 0, widths.map((width) => '-'.repeat(width)).join('  '));
    return [
      ...lines,
      '',
      'wf/s ratios per round:',
      ...this.#roundRatios.map((line) => `  ${line}`),
    ].join('\n');
  }
}
