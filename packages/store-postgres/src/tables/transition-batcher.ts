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

/**
 * Group commit of transitions: a write that arrives while no batch is being written goes
 * at once (after `maxWaitMs` when it asked for a wait, unless the batch fills first); writes
 * that arrive while one is being written wait for it and go together next, up to `maxBatch`
 * per statement, never two of one run in a statement (the second waits for the next).
 * Each write stays whole by itself: the statement writes each run's parts only when that
 * run's own compare-and-swap held, so a conflict fails that write alone. When the
 * statement itself fails (a deadlock, a lost connection), each write of the batch is sent
 * again alone on its own connection, so one write's error never becomes another's.
 */
export function createTransitionBatcher(schema: string, maxBatch = 32): TransitionBatcher {
  const waiting: Waiting[] = [];
  let writing = false;
  let timer: ReturnType<typeof setTimeout> | undefined;

  /** The next batch: the earliest waiting writes, one per run, at most `maxBatch`. */
  const nextBatch = (): Waiting[] => {
    const batch: Waiting[] = [];
    const runs = new Set<string>();
    for (let index = 0; index < waiting.length && batch.length < maxBatch;) {
      const entry = waiting[index]!;
      if (runs.has(entry.write.run.id)) {
        index += 1;
        continue;
      }
      runs.add(entry.write.run.id);
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

  async function drain(): Promise<void> {
    while (waiting.length > 0) {
      const batch = nextBatch();
      if (batch.length === 1) {
        await writeAlone(batch[0]!);
        continue;
      }
      let outcomes: WriteOutcome[];
      try {
        outcomes = await sendWrites(
          batch[0]!.send,
          schema,
          batch.map((entry) => entry.write),
        );
      } catch {
        await Promise.all(batch.map(writeAlone));
        continue;
      }
      batch.forEach((entry, index) => entry.resolve(outcomes[index]!));
    }
    writing = false;
  }

  const start = (): void => {
    if (timer !== undefined) clearTimeout(timer);
    timer = undefined;
    writing = true;
    void drain();
  };

  return {
    submit(write, send, maxWaitMs) {
      return new Promise<WriteOutcome>((resolve, reject) => {
        waiting.push({ write, send, maxWaitMs, resolve, reject });
        if (writing) return;
        const wait = Math.min(...waiting.map((entry) => entry.maxWaitMs));
        if (wait <= 0 || waiting.length >= maxBatch) start();
        else timer ??= setTimeout(start, wait);
      });
    },
  };
}
