import { sha256 } from '@noble/hashes/sha2.js';
import { utf8ToBytes } from '@noble/hashes/utils.js';
import type { Authenticate, Principal } from './principal.js';

/** An API key the built-in authenticator accepts. */
export interface ApiKeyEntry {
  /** The secret, `pr_test_…` or `pr_live_…`; its prefix sets the environment. */
  readonly key: string;
  readonly account: string;
}

const KEY_PATTERN = /^pr_(test|live)_[A-Za-z0-9]{16,128}$/;
const digest = (value: string): Uint8Array => sha256(utf8ToBytes(value));

/** Equal-length byte arrays compared without an early exit (no timing leak). */
function constantTimeEqual(left: Uint8Array, right: Uint8Array): boolean {
  let difference = left.length ^ right.length;
  for (let index = 0; index < left.length; index += 1)
    difference |= left[index]! ^ (right[index] ?? 0);
  return difference === 0;
}

/**
 * The environment a key belongs to, from its prefix; null for anything malformed.
 *
 * @example
 * ```ts
 * environmentOfKey('pr_test_4eC39HqLyjWDarjtT1zdp7dc'); // 'test'
 * ```
 */
export function environmentOfKey(key: string): 'test' | 'live' | null {
  const match = KEY_PATTERN.exec(key);
  return match ? (match[1] as 'test' | 'live') : null;
}

/**
 * A Bearer authenticator over a fixed list of keys. Keys are kept only as sha-256
 * digests and compared in constant time.
 *
 * @example
 * ```ts
 * const authenticate = createApiKeyAuthenticator([{ key: process.env.PROGRAMRUN_TEST_KEY!, account: 'acct_demo' }]);
 * ```
 */
export function createApiKeyAuthenticator(keys: readonly ApiKeyEntry[]): Authenticate {
  const entries = keys.map((entry) => {
    const environment = environmentOfKey(entry.key);
    if (!environment)
      throw new Error('API keys look like pr_test_<16+ letters and digits> or pr_live_<…>');
    return {
      digest: digest(entry.key),
      account: entry.account,
      environment,
      hint: `${entry.key.slice(0, 8)}…${entry.key.slice(-4)}`,
    };
  });
  return (request) => {
    const header = request.headers.get('authorization') ?? '';
    const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
    if (!match || !environmentOfKey(match[1]!)) return null;
    const presented = digest(match[1]!);
    let found: Principal | null = null;
    for (const entry of entries) {
      // Compare against every key so timing says nothing about which one matched.
      if (constantTimeEqual(entry.digest, presented)) {
        found = { account: entry.account, environment: entry.environment, keyHint: entry.hint };
      }
    }
    return found;
  };
}
