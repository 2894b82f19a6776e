/** How the handler serves event streams (`GET /v1/program-runs/{id}/stream`). */
export interface StreamPolicy {
  /** Streams one credential may hold open at once; past it, `429 too_many_streams`. */
  readonly maxPerCredential: number;
  /** How long a stream lasts before it ends (the client reconnects). */
  readonly maxDurationMs: number;
  /** How often an idle stream sends a `: keep-alive` comment. */
  readonly keepAliveMs: number;
  /**
   * How often a stream reads its run, for changes committed by other hosts sharing the
   * store (this host's commits are sent at once).
   */
  readonly pollIntervalMs: number;
}

/**
 * The defaults: 10 streams per credential, 5 minutes each, a keep-alive every 15 s, a read
 * every second.
 *
 * @example
 * ```ts
 * createHandler({ engine, accounts, streams: { ...DEFAULT_STREAM_POLICY, maxPerCredential: 20 } });
 * ```
 */
export const DEFAULT_STREAM_POLICY: StreamPolicy = {
  maxPerCredential: 10,
  maxDurationMs: 5 * 60_000,
  keepAliveMs: 15_000,
  pollIntervalMs: 1_000,
};
