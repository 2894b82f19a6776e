// Reads Server-Sent Events from a fetch response the way a browser client would with a
// stream reader: one event (or comment) at a time, with a time limit per read.

/** One block of an event stream: an event's fields, or a comment. */
export interface StreamBlock {
  readonly event?: string;
  readonly id?: string;
  readonly data?: string;
  /** The text of a comment line (`: keep-alive` → `keep-alive`). */
  readonly comment?: string;
}

/** A reader of an event stream's blocks. */
export interface EventStreamReader {
  /** The next block, `'end'` when the stream ended, or a rejection after `timeoutMs`. */
  next(timeoutMs?: number): Promise<StreamBlock | 'end'>;
  /** The next `event: run`'s data, parsed, skipping comments. */
  nextRun(timeoutMs?: number): Promise<{ id: string; run: Record<string, unknown> } | 'end'>;
  /** Stops reading (the client goes away). */
  cancel(): Promise<void>;
}

function parseBlock(text: string): StreamBlock {
  const block: Record<string, string> = {};
  for (const line of text.split('\n')) {
    if (line.startsWith(':')) block.comment = line.slice(1).trim();
    else {
      const colon = line.indexOf(':');
      const field = colon < 0 ? line : line.slice(0, colon);
      const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
      block[field] = field in block ? `${block[field]}\n${value}` : value;
    }
  }
  return block;
}

/**
 * Reads `response`'s event stream.
 *
 * @example
 * ```ts
 * const events = readEventStream(await fetch(url, { headers }));
 * const first = await events.nextRun();
 * ```
 */
export function readEventStream(response: Response): EventStreamReader {
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  let ended = false;
  let pending: ReturnType<ReadableStreamDefaultReader<string>['read']> | undefined;

  async function next(timeoutMs = 5_000): Promise<StreamBlock | 'end'> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const split = buffer.indexOf('\n\n');
      if (split >= 0) {
        const text = buffer.slice(0, split);
        buffer = buffer.slice(split + 2);
        return parseBlock(text);
      }
      if (ended) return 'end';
      pending ??= reader.read();
      let timer: ReturnType<typeof setTimeout> | undefined;
      const result = await Promise.race([
        pending,
        new Promise<'timeout'>((resolve) => {
          timer = setTimeout(() => resolve('timeout'), Math.max(0, deadline - Date.now()));
        }),
      ]);
      clearTimeout(timer);
      if (result === 'timeout') throw new Error(`no event within ${timeoutMs} ms`);
      pending = undefined;
      if (result.done) ended = true;
      else buffer += result.value;
    }
  }

  return {
    next,
    async nextRun(timeoutMs = 5_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const block = await next(Math.max(0, deadline - Date.now()));
        if (block === 'end') return 'end';
        if (block.event === 'run')
          return { id: block.id!, run: JSON.parse(block.data!) as Record<string, unknown> };
      }
    },
    cancel: () => reader.cancel().catch(() => undefined),
  };
}
