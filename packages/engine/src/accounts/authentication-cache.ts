import type { ApiKeyPrincipal } from './api-keys.js';

/** Remembers recently authenticated keys so a busy host skips a store read per request. */
export interface AuthenticationCache {
  /** The principal of a key digest authenticated within the last `ttlMs`, if any. */
  get(digest: string): ApiKeyPrincipal | undefined;
  /** Remembers a successful authentication. */
  set(digest: string, principal: ApiKeyPrincipal): void;
  /** Forgets every entry of a key (on revoke), so this host refuses it at once. */
  forgetKey(keyId: string): void;
}

interface Entry {
  readonly principal: ApiKeyPrincipal;
  readonly until: number;
}

/**
 * A bounded time-to-live cache of successful authentications by key digest (never the
 * secret). Only positive answers are kept: an unknown key always reaches the store, and a
 * `ttlMs` of 0 keeps nothing. When full, the oldest entry goes first.
 */
export function createAuthenticationCache(options: {
  readonly ttlMs: number;
  readonly maxEntries: number;
  /** Monotonic milliseconds. */
  readonly now: () => number;
}): AuthenticationCache {
  const { ttlMs, maxEntries, now } = options;
  const entries = new Map<string, Entry>();
  return {
    get(digest) {
      const entry = entries.get(digest);
      if (!entry) return undefined;
      if (entry.until <= now()) {
        entries.delete(digest);
        return undefined;
      }
      return entry.principal;
    },
    set(digest, principal) {
      if (ttlMs <= 0) return;
      entries.delete(digest);
      if (entries.size >= maxEntries) entries.delete(entries.keys().next().value!);
      entries.set(digest, { principal, until: now() + ttlMs });
    },
    forgetKey(keyId) {
      for (const [digest, entry] of entries) {
        if (entry.principal.keyId === keyId) entries.delete(digest);
      }
    },
  };
}
