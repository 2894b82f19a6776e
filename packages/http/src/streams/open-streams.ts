import type { Principal } from '../auth/principal.js';
import { HttpError } from '../errors/http-error.js';
import type { StreamPolicy } from './stream-policy.js';

/** A stream as the registry holds it, and how to end it. */
export interface OpenedStream {
  readonly stream: ReadableStream<Uint8Array>;
  /** Ends it now (idempotent). */
  readonly end: () => void;
}

/** The event streams a handler has open, per credential. */
export interface OpenStreams {
  readonly policy: StreamPolicy;
  /**
   * Opens a stream in one of the credential's slots, or throws `429 too_many_streams` when
   * it holds them all. `begin` builds the stream and must call `release` once it ends
   * (for whatever reason); a stream opened after {@link OpenStreams.closeAll} is ended at
   * once, after whatever `begin` sent first.
   */
  open(
    principal: Principal,
    begin: (release: () => void) => OpenedStream,
  ): ReadableStream<Uint8Array>;
  /** Ends every open stream, now and from now on (the host is stopping). */
  closeAll(): void;
}

/** The registry of one handler (one process): limits are per credential, per process. */
export function createOpenStreams(policy: StreamPolicy, now = () => Date.now()): OpenStreams {
  // Per credential: when each of its open streams ends by itself.
  const held = new Map<string, Set<number>>();
  // How to end each open stream, by a token of its own.
  const ends = new Map<object, () => void>();
  let closing = false;

  function refuse(deadlines: ReadonlySet<number>): never {
    const seconds = Math.max(1, Math.ceil((Math.min(...deadlines) - now()) / 1000));
    throw new HttpError(
      'too_many_streams',
      `This credential already has ${deadlines.size} open streams, the most it may hold at once; close one, or retry in ${seconds} s when the oldest ends.`,
      { headers: { 'retry-after': String(seconds) } },
    );
  }

  return {
    policy,
    open(principal, begin) {
      const key = `${principal.account}\u0000${principal.environment}\u0000${principal.credentialId}`;
      const deadlines = held.get(key) ?? new Set<number>();
      if (deadlines.size >= policy.maxPerCredential) refuse(deadlines);
      // Distinct per stream, so two streams opened in the same millisecond hold two slots.
      let deadline = now() + policy.maxDurationMs;
      while (deadlines.has(deadline)) deadline += 1;
      held.set(key, deadlines.add(deadline));
      const token = {};
      let released = false;
      const release = () => {
        if (released) return;
        released = true;
        ends.delete(token);
        deadlines.delete(deadline);
        if (deadlines.size === 0 && held.get(key) === deadlines) held.delete(key);
      };
      // `begin` may release at once (a run already final): its slot is then free again.
      const opened = begin(release);
      if (!released) {
        ends.set(token, opened.end);
        if (closing) opened.end();
      }
      return opened.stream;
    },
    closeAll() {
      closing = true;
      for (const end of [...ends.values()]) end();
    },
  };
}
