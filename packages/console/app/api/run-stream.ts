// Live updates of one run: `GET /v1/program-runs/{id}/stream` read through fetch (the key
// goes in the Authorization header, never in a URL, so no EventSource), reconnecting
// when the server ends the stream; when streaming is refused or unavailable, polling
// `GET /v1/program-runs/{id}` every second. Stops once the run is final.
import { ApiError } from './api-error.js';
import { api } from './client.js';
import { createSseParser } from './sse-parser.js';
import { isFinalStatus, type ProgramRun } from './types.js';

/** Options of {@link watchRun}. */
export interface WatchRunOptions {
  /** Every failure of a poll (the caller may show it); the watch keeps trying. */
  onError?: (error: unknown) => void;
  /** Polling interval in ms. @default 1000 */
  pollMs?: number;
}

const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => {
      clearTimeout(timer);
      resolve();
    });
  });

/** Reads one stream connection; resolves with the last run seen when it ends. */
async function readStream(
  id: string,
  signal: AbortSignal,
  onRun: (run: ProgramRun) => void,
): Promise<{ ok: boolean; last: ProgramRun | null }> {
  const response = await api.raw(`/v1/program-runs/${encodeURIComponent(id)}/stream`, {
    headers: { Accept: 'text/event-stream' },
    signal,
  });
  const type = response.headers.get('content-type') ?? '';
  if (!response.ok || !response.body || !type.startsWith('text/event-stream')) {
    await response.body?.cancel();
    return { ok: false, last: null };
  }
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  const parse = createSseParser();
  let last: ProgramRun | null = null;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      for (const event of parse(value)) {
        if (event.event !== 'run') continue;
        last = JSON.parse(event.data) as ProgramRun;
        onRun(last);
      }
    }
  } finally {
    reader.releaseLock();
  }
  return { ok: true, last };
}

/** Polls the run every `pollMs` until it is final or the watch stops. */
async function poll(
  id: string,
  signal: AbortSignal,
  onRun: (run: ProgramRun) => void,
  options: WatchRunOptions,
): Promise<void> {
  while (!signal.aborted) {
    try {
      const run = await api.get<ProgramRun>(
        `/v1/program-runs/${encodeURIComponent(id)}`,
        undefined,
        signal,
      );
      onRun(run);
      if (isFinalStatus(run.status)) return;
    } catch (error) {
      if (signal.aborted) return;
      options.onError?.(error);
      // Refused for good (no such run, no access): polling again would not change that.
      if (error instanceof ApiError && error.status >= 400 && error.status < 500) {
        if (error.status !== 429 && error.status !== 408) return;
      }
    }
    await sleep(options.pollMs ?? 1000, signal);
  }
}

/**
 * Calls `onRun` with the run now and whenever it changes; returns a function that stops.
 * Reconnects after the server ends a stream (5-minute limit, drain); falls back to polling
 * every second when the stream is refused (429 too_many_streams, an older server) or fails
 * twice in a row without a run.
 */
export function watchRun(
  id: string,
  onRun: (run: ProgramRun) => void,
  options: WatchRunOptions = {},
): () => void {
  const controller = new AbortController();
  const { signal } = controller;
  void (async () => {
    let failures = 0;
    while (!signal.aborted) {
      try {
        const { ok, last } = await readStream(id, signal, onRun);
        if (!ok) break;
        if (last !== null && isFinalStatus(last.status)) return;
        failures = last === null ? failures + 1 : 0;
      } catch {
        if (signal.aborted) return;
        failures += 1;
      }
      if (failures >= 2) break;
      await sleep(failures === 0 ? 100 : 1000, signal);
    }
    if (!signal.aborted) await poll(id, signal, onRun, options);
  })();
  return () => controller.abort();
}
