import { deterministicId } from './deterministic-id.js';

/** Makes the ids of new objects. */
export interface IdGenerator {
  /** A new run id, `prun_…`. */
  run(): string;
  /** A new access request (lead) id, `lead_…`. */
  accessRequest(): string;
  /** A new API key id, `key_…` (not the secret). */
  apiKey(): string;
  /** A new webhook endpoint id, `we_…`. */
  webhookEndpoint(): string;
}

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** CSPRNG bytes fetched 4 KiB at a time: one system call serves many ids. */
const pool = new Uint8Array(4096);
let poolIndex = pool.length;

function randomByte(): number {
  if (poolIndex === pool.length) {
    crypto.getRandomValues(pool);
    poolIndex = 0;
  }
  return pool[poolIndex++]!;
}

/**
 * `length` random base62 characters from the platform CSPRNG (rejection sampling, so
 * every character is uniform; bytes come from a pool refilled 4 KiB at a time).
 *
 * @example
 * ```ts
 * randomBase62(24); // 'q3Zk…'
 * ```
 */
export function randomBase62(length: number): string {
  let result = '';
  while (result.length < length) {
    const byte = randomByte();
    if (byte < 248) result += BASE62[byte % 62];
  }
  return result;
}

/**
 * Unguessable ids: `prun_` and 24 random base62 characters (~143 bits).
 *
 * @example
 * ```ts
 * createEngine({ store, scenarios, ids: randomIds() });
 * ```
 */
export function randomIds(): IdGenerator {
  return {
    run: () => `prun_${randomBase62(24)}`,
    accessRequest: () => `lead_${randomBase62(24)}`,
    apiKey: () => `key_${randomBase62(24)}`,
    webhookEndpoint: () => `we_${randomBase62(24)}`,
  };
}

/**
 * Deterministic ids derived from a seed and a counter: the same seed gives the same ids,
 * so tests and property checks get byte-identical lifecycle records.
 *
 * @example
 * ```ts
 * const ids = seededIds('test');
 * ids.run() === seededIds('test').run(); // true
 * ```
 */
export function seededIds(seed: string): IdGenerator {
  let counter = 0;
  const next = (prefix: string) => deterministicId(prefix, `${seed}:${(counter += 1)}`, 24);
  // Keys and endpoints count on their own, so creating them does not shift the ids of runs.
  let keyCounter = 0;
  let endpointCounter = 0;
  return {
    run: () => next('prun'),
    accessRequest: () => next('lead'),
    apiKey: () => deterministicId('key', `${seed}:key:${(keyCounter += 1)}`, 24),
    webhookEndpoint: () => deterministicId('we', `${seed}:endpoint:${(endpointCounter += 1)}`, 24),
  };
}
