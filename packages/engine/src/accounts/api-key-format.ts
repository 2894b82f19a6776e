import CRC32 from 'crc-32';
import type { RunEnvironment } from '@programrun/dsl';
import { randomBase62 } from '../ids/random-ids.js';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
/** Random characters of a key: 32 base62 characters, about 190 bits. */
const RANDOM_LENGTH = 32;
/** Checksum characters: a CRC32 (up to 4,294,967,295) fits in 6 base62 digits. */
const CHECKSUM_LENGTH = 6;
const KEY_PATTERN = /^(pr_(test|live)_)([0-9A-Za-z]{32})([0-9A-Za-z]{6})$/;

/** A well-formed API key, split into its parts. */
export interface ParsedApiKey {
  /** `pr_test_` or `pr_live_`. */
  readonly prefix: 'pr_test_' | 'pr_live_';
  readonly environment: RunEnvironment;
  readonly random: string;
  readonly checksum: string;
}

function base62(value: number, width: number): string {
  let text = '';
  let rest = value;
  do {
    text = BASE62[rest % 62]! + text;
    rest = Math.floor(rest / 62);
  } while (rest > 0);
  return text.padStart(width, '0');
}

/**
 * The checksum of a key's prefix and random part: CRC32 in 6 base62 digits. Secret
 * scanners use it to tell a leaked key from random text without asking us.
 *
 * @example
 * ```ts
 * apiKeyChecksum('pr_test_', 'A'.repeat(32)).length; // 6
 * ```
 */
export function apiKeyChecksum(prefix: string, random: string): string {
  return base62(CRC32.str(`${prefix}${random}`) >>> 0, CHECKSUM_LENGTH);
}

/**
 * A new random API key for an environment: `pr_test_` or `pr_live_`, 32 random base62
 * characters from the platform CSPRNG, and the 6-character checksum.
 *
 * @example
 * ```ts
 * generateApiKey('test'); // 'pr_test_…' (46 characters)
 * ```
 */
export function generateApiKey(environment: RunEnvironment): string {
  return formatApiKey(environment, randomBase62(RANDOM_LENGTH));
}

/**
 * The key of an environment with this random part (32 base62 characters) and its
 * checksum: how `generateApiKey` builds keys, and how tests name fixed, well-formed keys.
 *
 * @example
 * ```ts
 * formatApiKey('test', 'A'.repeat(32)); // 'pr_test_AAAA…' + 6-character checksum
 * ```
 */
export function formatApiKey(environment: RunEnvironment, random: string): string {
  if (!/^[0-9A-Za-z]{32}$/.test(random)) {
    throw new RangeError('the random part of an API key is 32 base62 characters');
  }
  const prefix = environment === 'test' ? 'pr_test_' : 'pr_live_';
  return `${prefix}${random}${apiKeyChecksum(prefix, random)}`;
}

/**
 * Splits a key into its parts, or null when it is not a well-formed programrun key
 * (wrong prefix, length or alphabet, or a checksum that does not match).
 *
 * @example
 * ```ts
 * parseApiKey(generateApiKey('live'))?.environment; // 'live'
 * parseApiKey('pr_test_typo'); // null
 * ```
 */
export function parseApiKey(key: string): ParsedApiKey | null {
  const match = KEY_PATTERN.exec(key);
  if (!match) return null;
  const prefix = match[1] as 'pr_test_' | 'pr_live_';
  const random = match[3]!;
  const checksum = match[4]!;
  if (apiKeyChecksum(prefix, random) !== checksum) return null;
  return { prefix, environment: match[2] as RunEnvironment, random, checksum };
}

/**
 * The length of every programrun API key.
 *
 * @example
 * ```ts
 * generateApiKey('test').length === API_KEY_LENGTH; // true
 * ```
 */
export const API_KEY_LENGTH = 'pr_test_'.length + RANDOM_LENGTH + CHECKSUM_LENGTH;
