import { FINAL_STATUSES, type RunRecord } from '@programrun/engine';
import type { OpenedStream } from './open-streams.js';
import type { StreamPolicy } from './stream-policy.js';

/** What a run's event stream reads and listens to. */
export interface RunStreamSource {
  /** The run as it is now (`engine.getRun`). */
  readonly read: () => Promise<RunRecord>;
  /** Calls `listener` after each change this host commits; returns the unsubscribe. */
  readonly watch: (listener: () => void) => () => void;
}

const encoder = new TextEncoder();
const KEEP_ALIVE = encoder.encode(': keep-alive\n\n');

/** Timers never keep a process alive by themselves: the server serving the stream does. */
function unref<T>(timer: T): T {
  (timer as { unref?: () => void }).unref?.();
  return timer;
}

/**
 * A run's Server-Sent Events: `event: run` with the run (JSON on one line) at once (and
 * again at once if it moved before the stream listened), then each time it reads differently (after this host's commits at once, from other hosts'
 * within a poll); a `: keep-alive` comment every `keepAliveMs`. It ends after a final run,
 * after `maxDurationMs`, on `end()`, or when `signal` aborts; a reader that cancels it (a
 * client gone) ends it too. However it ends, its timers and listener are gone and
 * `release` is called, once.
 *
 * Each event's `id` is the run's `updated_at`; a change within the same `updated_at` (the
 * test clock did not move) gets `#2`, `#3`… after it, so ids never repeat within a stream.
 */
export function runEventStream(
  first: RunRecord,
  source: RunStreamSource,
  options: {
    readonly policy: StreamPolicy;
    readonly release: () => void;
    readonly signal?: AbortSignal | undefined;
  },
): OpenedStream {
  const { policy, release, signal } = options;
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  let ended = false;
  let lastData = '';
  let lastUpdatedAt = '';
  let repeats = 0;
  let reading = false;
  let readAgain = false;
  let unwatch: (() => void) | undefined;
  let poll: ReturnType<typeof setInterval> | undefined;
  let keepAlive: ReturnType<typeof setInterval> | undefined;
  let deadline: ReturnType<typeof setTimeout> | undefined;

  /** Lets go of everything the stream holds; false when it had already ended. */
  function stop(): boolean {
    if (ended) return false;
    ended = true;
    clearInterval(poll);
    clearInterval(keepAlive);
    clearTimeout(deadline);
    unwatch?.();
    signal?.removeEventListener('abort', end);
    release();
    return true;
  }

  function end(): void {
    if (!stop()) return;
    try {
      controller.close();
    } catch {
      // The reader cancelled it meanwhile.
    }
  }

  function send(run: RunRecord): void {
    const data = JSON.stringify(run);
    if (data === lastData) return;
    lastData = data;
    repeats = run.updated_at === lastUpdatedAt ? repeats + 1 : 1;
    lastUpdatedAt = run.updated_at;
    const id = repeats === 1 ? run.updated_at : `${run.updated_at}#${repeats}`;
    controller.enqueue(encoder.encode(`event: run\nid: ${id}\ndata: ${data}\n\n`));
    if (FINAL_STATUSES.has(run.status)) end();
  }

  /** Reads the run and sends it if it changed; a change told mid-read reads again. */
  async function refresh(): Promise<void> {
    if (reading) {
      readAgain = true;
      return;
    }
    reading = true;
    try {
      do {
        readAgain = false;
        // A failed read (the store briefly unreachable) is retried at the next poll.
        const run = await source.read().catch(() => null);
        if (ended) return;
        if (run) send(run);
      } while (readAgain && !ended);
    } finally {
      reading = false;
    }
  }

  const stream = new ReadableStream<Uint8Array>({
    start(streamController) {
      controller = streamController;
      send(first);
      if (ended) return;
      unwatch = source.watch(() => void refresh());
      // A commit between the first read and the listener went untold: read once more now.
      void refresh();
      poll = unref(setInterval(() => void refresh(), policy.pollIntervalMs));
      keepAlive = unref(
        setInterval(() => {
          if (!ended) controller.enqueue(KEEP_ALIVE);
        }, policy.keepAliveMs),
      );
      deadline = unref(setTimeout(end, policy.maxDurationMs));
      if (signal?.aborted) end();
      else signal?.addEventListener('abort', end);
    },
    cancel() {
      stop();
    },
  });
  return { stream, end };
}
