// bench:peers' table: per workload, concurrency and side, the median rate over rounds,
// latency percentiles over every workflow of every round, and per-workflow costs (each the
// median of the rounds' values), then programrun ÷ DBOS for every column.
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

/** programrun ÷ DBOS for each numeric column but RSS. */
function ratios(programrun: Summary, dbos: Summary): string[] {
  const ratio = (a: number, b: number) =>
    b === 0 || !Number.isFinite(a / b) ? '–' : `${format(a / b, 2)}×`;
  return [
    ratio(programrun.rate, dbos.rate),
    ratio(programrun.p50, dbos.p50),
    ratio(programrun.p99, dbos.p99),
    ratio(programrun.statements, dbos.statements),
    ratio(programrun.commits, dbos.commits),
    ratio(programrun.nodeCpu, dbos.nodeCpu),
    ratio(programrun.pgCpu, dbos.pgCpu),
    ratio(programrun.walKiB, dbos.walKiB),
    '–', // one process holds both sides: no ratio of its RSS
  ];
}

/** Rows of the table being built; `render` pads the columns. */
export class PeersTable {
  readonly #rows: string[][] = [HEADER];
  readonly #roundRatios: string[] = [];

  /** Adds programrun, DBOS and the ratio rows of one workload and concurrency. */
  pair(workload: string, concurrency: number, programrun: Summary, dbos: Summary): void {
    const c = String(concurrency);
    this.#rows.push([workload, c, 'programrun', ...cells(programrun)]);
    this.#rows.push(['', '', 'DBOS', ...cells(dbos)]);
    this.#rows.push(['', '', 'programrun ÷ DBOS', ...ratios(programrun, dbos)]);
    const perRound = programrun.rates.map((rate, index) => format(rate / dbos.rates[index]!, 2));
    this.#roundRatios.push(`${workload}, c ${c}: ${perRound.join(', ')}`);
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
      'programrun ÷ DBOS wf/s per round:',
      ...this.#roundRatios.map((line) => `  ${line}`),
    ].join('\n');
  }
}
