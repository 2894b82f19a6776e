import { canonicalDigest, type Sha256Digest } from './digest.js';
import { ProgramrunError } from './programrun-error.js';

/** The fields every hash-chained record carries. */
export interface ChainLink {
  /** 1-based position in the chain; contiguous. */
  readonly sequence: number;
  /** Hash of the previous record, `null` for the first. */
  readonly prev: Sha256Digest | null;
  /** `canonicalDigest` of the record without its `hash` field. */
  readonly hash: Sha256Digest;
}

/** A record body before it is linked into a chain. */
export type UnlinkedRecord<T extends ChainLink> = Omit<T, 'prev' | 'hash'>;

/**
 * Links `body` after `prev`: sets `prev` and computes `hash` over the canonical JSON of
 * the record without `hash` (so the hash covers `sequence`, `prev` and all data).
 *
 * @example
 * ```ts
 * type Fact = ChainLink & { type: string };
 * const first = linkRecord<Fact>({ sequence: 1, type: 'program_run.created' }, null);
 * const second = linkRecord<Fact>({ sequence: 2, type: 'program_run.completed' }, first.hash);
 * ```
 */
export function linkRecord<T extends ChainLink>(
  body: UnlinkedRecord<T>,
  prev: Sha256Digest | null,
): T {
  const withPrev = { ...body, prev };
  return { ...withPrev, hash: canonicalDigest(withPrev) } as unknown as T;
}

/** Why a chain failed verification, naming the first broken link. */
export interface ChainBreak {
  readonly ok: false;
  /** Index in the array of the first record that does not hold. */
  readonly index: number;
  readonly sequence: number | undefined;
  readonly reason:
    'sequence_gap' | 'prev_mismatch' | 'hash_mismatch' | 'head_mismatch' | 'malformed';
  readonly message: string;
}

/** Result of {@link verifyChain}. */
export type ChainVerification =
  { readonly ok: true; readonly head: Sha256Digest | null; readonly length: number } | ChainBreak;

/** Options of {@link verifyChain}. */
export interface VerifyChainOptions {
  /** Sequence of the first record. @default 1 */
  readonly startSequence?: number;
  /** `prev` of the first record. @default null */
  readonly startPrev?: Sha256Digest | null;
  /**
   * The head the chain must end in (e.g. a bundle's `chain_head`): without it a chain
   * with its last records cut off still verifies.
   */
  readonly expectedHead?: Sha256Digest | null;
}

/**
 * Verifies a whole chain: sequences contiguous from `startSequence`, each `prev` equal to
 * the previous `hash` (the first to `startPrev`), every `hash` recomputed, and the last
 * hash equal to `expectedHead` when given.
 *
 * @example
 * ```ts
 * const result = verifyChain(records);
 * if (!result.ok) console.error(`record ${result.sequence}: ${result.message}`);
 * ```
 */
export function verifyChain(
  records: readonly unknown[],
  options: VerifyChainOptions = {},
): ChainVerification {
  let expectedSequence = options.startSequence ?? 1;
  let expectedPrev = options.startPrev ?? null;
  for (const [index, candidate] of records.entries()) {
    const fail = (reason: ChainBreak['reason'], message: string): ChainBreak => ({
      ok: false,
      index,
      sequence: isLink(candidate) ? candidate.sequence : undefined,
      reason,
      message,
    });
    if (!isLink(candidate)) return fail('malformed', 'record lacks sequence, prev or hash');
    if (candidate.sequence !== expectedSequence) {
      return fail(
        'sequence_gap',
        `expected sequence ${expectedSequence}, found ${candidate.sequence}`,
      );
    }
    if (candidate.prev !== expectedPrev) {
      return fail(
        'prev_mismatch',
        `prev ${String(candidate.prev)} does not match ${String(expectedPrev)}`,
      );
    }
    const { hash, ...body } = candidate;
    const recomputed = canonicalDigest(body);
    if (recomputed !== hash)
      return fail('hash_mismatch', `hash ${hash} does not match content ${recomputed}`);
    expectedSequence += 1;
    expectedPrev = hash;
  }
  if (options.expectedHead !== undefined && options.expectedHead !== expectedPrev) {
    return {
      ok: false,
      index: records.length,
      sequence: undefined,
      reason: 'head_mismatch',
      message: `chain ends in ${String(expectedPrev)}, expected head ${String(options.expectedHead)}`,
    };
  }
  return { ok: true, head: expectedPrev, length: records.length };
}

/**
 * Like {@link verifyChain} but throws {@link HashChainError} on the first broken link.
 *
 * @example
 * ```ts
 * const head = assertChain(records); // 'sha256:…'
 * ```
 */
export function assertChain(
  records: readonly unknown[],
  options: VerifyChainOptions = {},
): Sha256Digest | null {
  const result = verifyChain(records, options);
  if (!result.ok) throw new HashChainError(result);
  return result.head;
}

/**
 * Thrown by {@link assertChain}; carries the {@link ChainBreak}.
 *
 * @example
 * ```ts
 * try { assertChain(records); } catch (error) { (error as HashChainError).break.index; }
 * ```
 */
export class HashChainError extends ProgramrunError {
  readonly break: ChainBreak;
  constructor(chainBreak: ChainBreak) {
    super(
      'hash_chain_broken',
      `Hash chain broken at index ${chainBreak.index}: ${chainBreak.message}`,
    );
    this.break = chainBreak;
  }
}

function isLink(value: unknown): value is ChainLink & Record<string, unknown> {
  if (typeof value !== 'object' || value === null) return false;
  const record = value as Record<string, unknown>;
  return (
    typeof record.sequence === 'number' &&
    typeof record.hash === 'string' &&
    (record.prev === null || typeof record.prev === 'string')
  );
}
