// Load on one host: concurrent creations with Idempotency-Keys (new, retried, reused with
// another body) and release approvals, every answer filed in a ledger.
import type { ApiClient } from './api-client.js';
import { recordAnswer, type CreateRunBody, type LoadLedger } from './load-ledger.js';
import type { SeededRandom } from './seeded-random.js';

/**
 * Valid `wallet-delivery@v1` inputs; amounts vary per run (all below the review limit).
 *
 * @example
 * ```ts
 * const body = { scenario_id: 'wallet-delivery@v1', inputs: { ...WALLET_INPUTS, amount: '101.00' } };
 * ```
 */
export const WALLET_INPUTS = {
  amount: '125.00',
  destination_wallet_address: '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
  network: 'base',
} as const;

/**
 * The decision that releases a wallet delivery (quorum 1).
 *
 * @example
 * ```ts
 * await client.call('POST', `/v1/program-runs/${id}/approvals`, { body: RELEASE_APPROVAL });
 * ```
 */
export const RELEASE_APPROVAL = {
  step: 'release_approval',
  decision: 'approve',
  approver: 'ops:treasury',
} as const;

/** Options of {@link runCreateSignalLoad}. */
export interface CreateSignalLoadOptions {
  readonly client: ApiClient;
  readonly ledger: LoadLedger;
  readonly random: SeededRandom;
  /** Requests in flight at once. */
  readonly workers: number;
  /** Prefix of new Idempotency-Keys (unique per load). */
  readonly keyPrefix: string;
  /** Polled before each request; the load ends when it returns true. */
  readonly stopped: () => boolean;
}

/**
 * A `wallet-delivery@v1` creation body; `amount` tells runs apart.
 *
 * @example
 * ```ts
 * walletBody(7).inputs.amount; // '107.00'
 * ```
 */
export function walletBody(index: number): CreateRunBody {
  return {
    scenario_id: 'wallet-delivery@v1',
    inputs: { ...WALLET_INPUTS, amount: `${100 + (index % 2000)}.00` },
  };
}

/**
 * Runs `workers` clients until `stopped()`: each request is a new creation (about half),
 * a retry of a known key (unanswered ones first), a known key with another body (must be
 * refused 422), or an approval of an acknowledged run (with an Idempotency-Key half the
 * time). Requests a crash cuts off are filed as unanswered, never as failures.
 *
 * @example
 * ```ts
 * let stop = false;
 * const load = runCreateSignalLoad({ client, ledger, random, workers: 6, keyPrefix: 'r1', stopped: () => stop });
 * setTimeout(() => void host.crash().then(() => (stop = true)), 1000);
 * await load;
 * ```
 */
export async function runCreateSignalLoad(options: CreateSignalLoadOptions): Promise<void> {
  const { client, ledger, random } = options;
  let created = 0;

  const create = async (key: string, body: CreateRunBody) => {
    const answer = await client.call('POST', '/v1/program-runs', { body, idempotencyKey: key });
    recordAnswer(ledger, `create ${key}`, answer, { key, expected: [409] });
  };

  const step = async () => {
    const roll = random.next();
    const known = [...ledger.bodies.keys()];
    const acknowledged = [...ledger.runsByKey.keys()];
    if (roll < 0.15 && known.length > 0) {
      const unanswered = [...ledger.unanswered];
      const key = unanswered.length > 0 ? random.pick(unanswered) : random.pick(known);
      return create(key, ledger.bodies.get(key)!);
    }
    if (roll < 0.2 && acknowledged.length > 0) {
      const key = random.pick(acknowledged);
      const body = ledger.bodies.get(key)!;
      const other = { ...body, inputs: { ...body.inputs, amount: '9999.00' } };
      const answer = await client.call('POST', '/v1/program-runs', {
        body: other,
        idempotencyKey: key,
      });
      if (answer.status >= 200 && answer.status < 300) {
        ledger.unexpected.push(`key ${key} reused with another body answered ${answer.status}`);
      }
      return recordAnswer(ledger, `reuse ${key}`, answer, { expected: [422] });
    }
    if (roll < 0.45 && acknowledged.length > 0) {
      const runId = [...ledger.runsByKey.get(random.pick(acknowledged))!][0]!;
      const answer = await client.call('POST', `/v1/program-runs/${runId}/approvals`, {
        body: RELEASE_APPROVAL,
        ...(random.next() < 0.5
          ? { idempotencyKey: `${options.keyPrefix}-approve-${random.integer(0, 1e9)}` }
          : {}),
      });
      // 409: the run is still screening (step_not_awaiting).
      return recordAnswer(ledger, `approve ${runId}`, answer, { expected: [409] });
    }
    const key = `${options.keyPrefix}-${(created += 1)}`;
    const body = walletBody(ledger.bodies.size);
    ledger.bodies.set(key, body);
    return create(key, body);
  };

  await Promise.all(
    Array.from({ length: options.workers }, async () => {
      while (!options.stopped()) await step();
    }),
  );
}
