// A run kept live (stream, else polling) with its lifecycle records, fetched again
// (only the new ones) whenever the run changes.
import { useEffect, useRef, useState } from 'preact/hooks';
import { api } from '../../api/client.js';
import { watchRun } from '../../api/run-stream.js';
import type { LifecycleRecord, ListPage, ProgramRun } from '../../api/types.js';

/** What the Run page shows. */
export interface RunState {
  run: ProgramRun | null;
  records: LifecycleRecord[];
  /** True while records newer than the ones held are being fetched. */
  recordsLoading: boolean;
  error: unknown;
  /** Replaces the run with one an action answered (the stream follows anyway). */
  setRun: (run: ProgramRun) => void;
}

/** Every record after `after` (all pages). */
async function recordsAfter(id: string, after: number, signal: AbortSignal) {
  const records: LifecycleRecord[] = [];
  let cursor = after;
  for (;;) {
    const page = await api.get<ListPage<LifecycleRecord>>(
      `/v1/program-runs/${encodeURIComponent(id)}/events`,
      { after_sequence: cursor, limit: 1000 },
      signal,
    );
    records.push(...page.data);
    const last = page.data.at(-1);
    if (!page.has_more || last === undefined) return records;
    cursor = last.sequence;
  }
}

/** The run `id`, live. */
export function useRun(id: string): RunState {
  const [run, setRun] = useState<ProgramRun | null>(null);
  const [records, setRecords] = useState<LifecycleRecord[]>([]);
  const [recordsLoading, setRecordsLoading] = useState(true);
  const [error, setError] = useState<unknown>(null);
  const held = useRef<LifecycleRecord[]>([]);
  // The newest run wins: an action's answer may arrive after the stream's next update.
  const keepNewest = (next: ProgramRun) =>
    setRun((previous) =>
      previous !== null && previous.id === next.id && previous.updated_at > next.updated_at
        ? previous
        : next,
    );

  useEffect(() => {
    setRun(null);
    setError(null);
    held.current = [];
    setRecords([]);
    return watchRun(
      id,
      (next) => {
        setError(null);
        keepNewest(next);
      },
      { onError: setError },
    );
  }, [id]);

  const updatedAt = run?.updated_at;
  useEffect(() => {
    if (updatedAt === undefined) return;
    const controller = new AbortController();
    setRecordsLoading(true);
    const after = held.current.at(-1)?.sequence ?? 0;
    recordsAfter(id, after, controller.signal).then(
      (fresh) => {
        held.current = [...held.current, ...fresh.filter((record) => record.sequence > after)];
        setRecords(held.current);
        setRecordsLoading(false);
      },
      (failure: unknown) => {
        if (controller.signal.aborted) return;
        setError(failure);
        setRecordsLoading(false);
      },
    );
    return () => controller.abort();
  }, [id, updatedAt]);

  return { run, records, recordsLoading, error, setRun: keepNewest };
}
