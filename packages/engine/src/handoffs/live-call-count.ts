/** One claimed job of this host, from its claim to its settle. */
export interface LiveCall {
  /** The partner answered (or the call failed): the call leaves its party's slot. */
  readonly ended: () => void;
  /** The result was written (or given up): the job is no longer this host's. */
  readonly settled: () => void;
}

/** This host's live calls: those in flight, and those ended whose results are being written. */
export interface LiveCallCount {
  /** Counts a call of job `jobId` to `party` as started. */
  readonly started: (party: string, jobId: string) => LiveCall;
  /** Calls in flight: of `party` when named, else of every party. */
  readonly inFlight: (party?: string) => number;
  /**
   * The jobs of `party` whose calls ended on this host and whose results are not written
   * yet: their leases still hold, but no call of theirs is in flight, so this host's next
   * claim does not count them against the party's concurrency (`HandoffJobClaim.ended`).
   */
  readonly ended: (party: string) => string[];
}

/**
 * A {@link LiveCallCount} starting at none: what a worker's pass reads to leave alone a
 * party whose concurrency this host's calls take whole, and to tell its claims which of
 * its leases are results being written rather than calls in flight. `hostEnded`, when
 * given, holds the same ended jobs for the whole host (every count of its workers), for the
 * load reports to leave out.
 */
export function liveCallCount(hostEnded?: Set<string>): LiveCallCount {
  const byParty = new Map<string, number>();
  const endedByParty = new Map<string, Set<string>>();
  let total = 0;
  return {
    started: (party, jobId) => {
      byParty.set(party, (byParty.get(party) ?? 0) + 1);
      total += 1;
      let state: 'calling' | 'ended' | 'settled' = 'calling';
      const leave = () => {
        byParty.set(party, byParty.get(party)! - 1);
        total -= 1;
      };
      return {
        ended: () => {
          if (state !== 'calling') return;
          state = 'ended';
          leave();
          let ended = endedByParty.get(party);
          if (!ended) endedByParty.set(party, (ended = new Set()));
          ended.add(jobId);
          hostEnded?.add(jobId);
        },
        settled: () => {
          if (state === 'settled') return;
          if (state === 'calling') leave();
          else {
            endedByParty.get(party)?.delete(jobId);
            hostEnded?.delete(jobId);
          }
          state = 'settled';
        },
      };
    },
    inFlight: (party) => (party === undefined ? total : (byParty.get(party) ?? 0)),
    ended: (party) => [...(endedByParty.get(party) ?? [])],
  };
}
