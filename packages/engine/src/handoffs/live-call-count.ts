/** This host's live calls in flight, in all and per party. */
export interface LiveCallCount {
  /** Counts a call of `party` as started; the function returned counts it as ended. */
  readonly started: (party: string) => () => void;
  /** Calls in flight: of `party` when named, else of every party. */
  readonly inFlight: (party?: string) => number;
}

/**
 * A {@link LiveCallCount} starting at none: what a worker's pass reads to leave alone a
 * party whose concurrency this host's calls take whole, without a claim that cannot lease.
 */
export function liveCallCount(): LiveCallCount {
  const byParty = new Map<string, number>();
  let total = 0;
  return {
    started: (party) => {
      byParty.set(party, (byParty.get(party) ?? 0) + 1);
      total += 1;
      let ended = false;
      return () => {
        if (ended) return;
        ended = true;
        byParty.set(party, byParty.get(party)! - 1);
        total -= 1;
      };
    },
    inFlight: (party) => (party === undefined ? total : (byParty.get(party) ?? 0)),
  };
}
