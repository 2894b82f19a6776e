import type { Ed25519Backend } from './ed25519-backend.js';
import { nodeBackend, nodeBackendAvailable } from './node-backend.js';
import { tweetnaclBackend } from './tweetnacl-backend.js';

/**
 * `node:crypto` where available, else `tweetnacl`.
 *
 * @example
 * ```ts
 * defaultBackend().name; // 'node:crypto' on Node
 * ```
 */
export function defaultBackend(): Ed25519Backend {
  return nodeBackendAvailable() ? nodeBackend : tweetnaclBackend;
}
