import type { WebhookClaim, WebhookDeliveryRow } from './webhook-spec.js';

/** Earliest due first, ties by id. */
export const byDueThenId = (a: WebhookDeliveryRow, b: WebhookDeliveryRow): number =>
  (a.next_attempt_at ?? '') === (b.next_attempt_at ?? '')
    ? a.id < b.id
      ? -1
      : 1
    : (a.next_attempt_at ?? '') < (b.next_attempt_at ?? '')
      ? -1
      : 1;

/** Inserts `row` into `earliest` (sorted) and keeps only the first `size`. */
function keepEarliest(earliest: WebhookDeliveryRow[], row: WebhookDeliveryRow, size: number): void {
  if (earliest.length === size && byDueThenId(row, earliest.at(-1)!) >= 0) return;
  let index = earliest.length;
  while (index > 0 && byDueThenId(row, earliest[index - 1]!) < 0) index -= 1;
  earliest.splice(index, 0, row);
  if (earliest.length > size) earliest.pop();
}

const endpointKey = (row: WebhookDeliveryRow): string => `${row.account}\u0000${row.endpoint_id}`;
const increment = (counts: Map<string, number>, key: string): void => {
  counts.set(key, (counts.get(key) ?? 0) + 1);
};

/**
 * The deliveries a claim leases, chosen from the pending ones with the fair shares of
 * `WebhookOperations.claimWebhookDeliveries`: per-endpoint and per-account caps that count
 * leases still held, then accounts taking turns. One pass over the pending rows, keeping
 * only the few earliest of each endpoint, so a large backlog is never sorted whole.
 * Returns them earliest due first.
 */
export function chooseFairClaim(
  pending: Iterable<WebhookDeliveryRow>,
  claim: WebhookClaim,
): WebhookDeliveryRow[] {
  if (claim.limit <= 0) return [];
  const accountCap = claim.max_per_account ?? Infinity;
  const endpointCap = claim.max_per_endpoint ?? Infinity;
  const busyAccounts = new Map<string, number>();
  const busyEndpoints = new Map<string, number>();
  const free: WebhookDeliveryRow[] = [];
  for (const delivery of pending) {
    if (delivery.environment !== claim.environment) continue;
    if (delivery.lease_until !== null && delivery.lease_until > claim.lease_now) {
      increment(busyAccounts, delivery.account);
      increment(busyEndpoints, endpointKey(delivery));
    } else if (delivery.next_attempt_at !== null && delivery.next_attempt_at <= claim.due_at) {
      free.push(delivery);
    }
  }
  // What each endpoint offers: its earliest free deliveries, up to its remaining share.
  const offered = new Map<string, WebhookDeliveryRow[]>();
  for (const delivery of free) {
    const key = endpointKey(delivery);
    const size = Math.min(claim.limit, endpointCap - (busyEndpoints.get(key) ?? 0));
    if (size <= 0) continue;
    let earliest = offered.get(key);
    if (!earliest) offered.set(key, (earliest = []));
    keepEarliest(earliest, delivery, size);
  }
  // Each account takes the earliest of what its endpoints offer, up to its share, on turns.
  const byAccount = new Map<string, WebhookDeliveryRow[]>();
  for (const rows of offered.values()) {
    const account = rows[0]!.account;
    byAccount.set(account, [...(byAccount.get(account) ?? []), ...rows]);
  }
  const turns: { delivery: WebhookDeliveryRow; turn: number }[] = [];
  for (const [account, rows] of byAccount) {
    const busy = busyAccounts.get(account) ?? 0;
    const share = Math.min(claim.limit, accountCap - busy);
    rows
      .sort(byDueThenId)
      .slice(0, Math.max(0, share))
      .forEach((delivery, index) => turns.push({ delivery, turn: busy + index + 1 }));
  }
  return turns
    .sort((a, b) => a.turn - b.turn || byDueThenId(a.delivery, b.delivery))
    .slice(0, claim.limit)
    .map(({ delivery }) => delivery)
    .sort(byDueThenId);
}
