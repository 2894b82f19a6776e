/** Where progress goes: stderr, a terminal or not. */
export interface ProgressStream {
  readonly isTTY?: boolean;
  readonly columns?: number;
  write(text: string): unknown;
}

/** Progress of the cases of one scenario. */
export interface ScenarioProgress {
  update(done: number, total: number): void;
  /** Clears the bar (terminal) or prints nothing more (plain lines). */
  finish(): void;
}

/** How progress is shown: a bar on a terminal, a line per quarter otherwise, or nothing. */
export type ProgressMode = 'bar' | 'lines' | 'none';

const BAR_WIDTH = 20;

const seconds = (since: number) => `${((performance.now() - since) / 1000).toFixed(1)} s`;

/**
 * Progress of `check` on stderr: a redrawn bar when stderr is a terminal, a plain line at
 * each quarter otherwise (CI logs), nothing with `--quiet`.
 */
export function scenarioProgress(
  stream: ProgressStream,
  mode: ProgressMode,
  label: string,
): ScenarioProgress {
  const started = performance.now();
  if (mode === 'none') return { update: () => undefined, finish: () => undefined };
  if (mode === 'lines') {
    let quarter = 0;
    return {
      update(done, total) {
        const reached = total === 0 ? 4 : Math.floor((done / total) * 4);
        if (reached <= quarter) return;
        quarter = reached;
        stream.write(
          `${label}: ${Math.floor((done / total) * 100)}% (${done}/${total} cases, ${seconds(started)})\n`,
        );
      },
      finish: () => undefined,
    };
  }
  let drawn = 0;
  const draw = (done: number, total: number) => {
    const ratio = total === 0 ? 1 : done / total;
    const filled = Math.round(ratio * BAR_WIDTH);
    const line = `${label} [${'█'.repeat(filled)}${'░'.repeat(BAR_WIDTH - filled)}] ${String(Math.floor(ratio * 100)).padStart(3)}% ${done}/${total} cases ${seconds(started)}`;
    const width = stream.columns ?? 80;
    stream.write(`\r\x1b[2K${line.length >= width ? line.slice(0, width - 1) : line}`);
  };
  return {
    update(done, total) {
      // Redraw at most every 50 ms, and always at the end.
      const now = performance.now();
      if (done < total && now - drawn < 50) return;
      drawn = now;
      draw(done, total);
    },
    finish: () => stream.write('\r\x1b[2K'),
  };
}
