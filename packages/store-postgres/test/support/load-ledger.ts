// What a load generator's clients were told: every 2xx answer is a promise the store must
// keep after any crash.
import type { RunRecord } from '@programrun/engine';
import type { ApiAnswer } from './api-client.js';

/** The body of `POST /v1/program-runs`. */
export interface CreateRunBody {
  readonly scenario_id: string;
  readonly inputs: Record<string, string>;
}

/** Everything acknowledged, refused or left unanswered during a load. */
export interface LoadLedger {
  /** Each Idempotency-Key used for a creation, with the one body sent with it. */
  readonly bodies: Map<string, CreateRunBody>;
  /** The run ids of the 2xx answers to each key (one each, or the store broke its promise). */
  readonly runsByKey: Map<string, Set<string>>;
  /** Answers 201 that were not replays, per key: at most one creation each. */
  readonly creations: Map<string, number>;
  /** Chain heads of 2xx answers, per run: each must stay in the run's history. */
  readonly heads: Map<string, Set<string>>;
  /** Keys whose last request got no answer (the host died under it). */
  readonly unanswered: Set<string>;
  /** Answers no client should ever see (5xx, a 2xx for a reused key with another body). */
  readonly unexpected: string[];
  /** Requests by outcome: `2xx`, `409`, `422`, `none`, … */
  readonly tally: Map<string, number>;
}

/**
 * An empty ledger.
 *
 * @example
 * ```ts
 * const ledger = createLedger();
 * recordAnswer(ledger, 'POST /v1/program-runs', answer);
 * ```
 */
export function createLedger(): LoadLedger {
  return {
    bodies: new Map(),
    runsByKey: new Map(),
    creations: new Map(),
    heads: new Map(),
    unanswered: new Set(),
    unexpected: [],
    tally: new Map(),
  };
}

const isRun = (body: unknown): body is RunRecord =>
  typeof body === 'object' && body !== null && (body as RunRecord).object === 'program_run';

/**
 * Files one answer: tallies it, keeps the chain head of a 2xx run and, for a creation
 * (`key`), the run id it named. 5xx answers and any status outside `expected` (besides
 * 2xx and no answer) are kept as unexpected.
 *
 * @example
 * ```ts
 * recordAnswer(ledger, `POST create ${key}`, answer, { key, expected: [409, 422] });
 * ```
 */
export function recordAnswer(
  ledger: LoadLedger,
  label: string,
  answer: ApiAnswer<unknown>,
  options: { readonly key?: string; readonly expected?: readonly number[] } = {},
): void {
  const { status } = answer;
  const bucket = status === 0 ? 'none' : status < 300 ? '2xx' : String(status);
  ledger.tally.set(bucket, (ledger.tally.get(bucket) ?? 0) + 1);
  if (options.key !== undefined) {
    if (status === 0) ledger.unanswered.add(options.key);
    else ledger.unanswered.delete(options.key);
  }
  if (status >= 200 && status < 300 && isRun(answer.body)) {
    const run = answer.body;
    if (options.key !== undefined) {
      const runs = ledger.runsByKey.get(options.key) ?? new Set();
      ledger.runsByKey.set(options.key, runs.add(run.id));
      if (status === 201 && !answer.replayed) {
        ledger.creations.set(options.key, (ledger.creations.get(options.key) ?? 0) + 1);
      }
    }
    if (run.evidence.chain_head !== null) {
      const heads = ledger.heads.get(run.id) ?? new Set();
      ledger.heads.set(run.id, heads.add(run.evidence.chain_head));
    }
    return;
  }
  if (status === 0 || (status >= 200 && status < 300)) return;
  if (status >= 500 || !(options.expected ?? []).includes(status)) {
    ledger.unexpected.push(`${label}: ${status} ${JSON.stringify(answer.body).slice(0, 300)}`);
  }
}
