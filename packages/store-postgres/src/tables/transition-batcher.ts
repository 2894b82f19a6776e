import type { TransitionWrite } from '@programrun/engine';
import { PREPARED_WRITE, type SendStatement } from '../sql/sql-database.js';
import { transitionWriteStatement, type WriteOutcome } from './transition-write-statement.js';

/** A write waiting for its batch, with the connection of the unit of work it came from. */
interface Waiting {
  readonly write: TransitionWrite;
  readonly send: SendStatement;
  readonly maxWaitMs: number;
  readonly resolve: (outcome: WriteOutcome) => void;
  readonly reject: (error: unknown) => void;
}

/** The row the write statement answers for each write. */
interface OutcomeRow extends WriteOutcome {
  readonly position: number;
}

/** Commits writes of single-write units of work, several runs' in one statement. */
export interface TransitionBatcher {
  /**
   * Commits `write` with whatever other writes are waiting, sending the statement on the
   * connection of the first write of the batch (`send`: one that commits by itself).
   * Resolves with this write's outcome alone.
   */
  submit(write: TransitionWrite, send: SendStatement, maxWaitMs: number): Promise<WriteOutcome>;
}

/** Writes `writes` in one statement; their outcomes in the same order. */
export async function sendWrites(
  send: SendStatement,
  schema: string,
  writes: readonly TransitionWrite[],
): Promise<WriteOutcome[]> {
  const { text, params } = transitionWriteStatement(schema, writes);
  const { rows } = await send<OutcomeRow>(text, params, PREPARED_WRITE);
  const outcomes: WriteOutcome[] = new Array<WriteOutcome>(writes.length);
  for (const row of rows) outcomes[row.position] = row;
  return outcomes;
}

/** How many batch statements may be executing at once, each on its own connection. */
const MAX_BATCHES_IN_FLIGHT = 2;

/**
 * Group commit of transitions: a write waits at most `maxWaitMs` (the least any waiting
 * write asked for) for others to join it, unless the batch fills first; when a batch
 * statement answers, whatever waits goes next at once. Up to {@link MAX_BATCHES_IN_FLIGHT}
 * statements execute at the same time, so the server writes one batch while this host
 * computes the next; a run is in at most one of them (its next write waits for the first
 * to answer), at most `maxBatch` writes per statement. Concurrent statements lock their
 * runs in id order, so they never wait on each other in a cycle.
 * Each write stays whole by itself: the statement writes each run's parts only when that
 * run's own compare-and-swap held, so a conflict fails that write alone. When the
 * statement itself fails (a deadlock, a lost connection), each write of the batch is sent
 * again alone on its own connection, so one write's error never becomes another's.
 */
export function createTransitionBatcher(
  schema: string,
  maxBatch = 32,
  maxInFlight = MAX_BATCHES_IN_FLIGHT,
): TransitionBatcher {
  const waiting: Waiting[] = [];
  /** The runs of the statements executing now. */
  const writingRuns = new Set<string>();
  let inFlight = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;

  /** The next batch: the earliest waiting writes, one per run none writes now, ≤ `maxBatch`. */
  const nextBatch = (): Waiting[] => {
    const batch: Waiting[] = [];
    const runs = new Set<string>();
    for (let index = 0; index < waiting.length && batch.length < maxBatch;) {
      const entry = waiting[index]!;
      const run = entry.write.run.id;
      if (runs.has(run) || writingRuns.has(run)) {
        index += 1;
        continue;
      }
      runs.add(run);
      batch.push(entry);
      waiting.splice(index, 1);
    }
    return batch;
  };

  const writeAlone = async (entry: Waiting): Promise<void> => {
    try {
      entry.resolve((await sendWrites(entry.send, schema, [entry.write]))[0]!);
    } catch (error) {
      entry.reject(error);
    }
  };

  async function writeBatch(batch: readonly Waiting[]): Promise<void> {
    if (batch.length === 1) return writeAlone(batch[0]!);
    let outcomes: WriteOutcome[];
    try {
      outcomes = await sendWrites(
        batch[0]!.send,
        schema,
        batch.map((entry) => entry.write),
      );
    } catch {
      await Promise.all(batch.map(writeAlone));
      return;
    }
    batch.forEach((entry, index) => entry.resolve(outcomes[index]!));
  }

  /** Sends waiting writes in as many statements as may execute now. */
  function send(): void {
    if (timer !== undefined) clearTimeout(timer);
    timer = undefined;
    while (inFlight < maxInFlight) {
      const batch = nextBatch();
      if (batch.length === 0) return;
      inFlight += 1;
      for (const entry of batch) writingRuns.add(entry.write.run.id);
      void writeBatch(batch).finally(() => {
        inFlight -= 1;
        for (const entry of batch) writingRuns.delete(entry.write.run.id);
        send();
      });
    }
  }

  return {
    submit(write, sendOn, maxWaitMs) {
      return new Promise<WriteOutcome>((resolve, reject) => {
        waiting.push({ write, send: sendOn, maxWaitMs, resolve, reject });
        if (inFlight >= maxInFlight) return; // goes when a statement answers
        const wait = Math.min(...waiting.map((entry) => entry.maxWaitMs));
        if (wait <= 0 || waiting.length >= maxBatch) send();
        else timer ??= setTimeout(send, wait);
      });
    },
  };
}
