import type { RunEnvironment } from '@programrun/dsl';
import { sha256Digest } from '@programrun/evidence';
import type { Clock } from '../time/clock.js';
import { EngineError } from '../errors.js';
import type { IdGenerator } from '../ids/random-ids.js';
import { isStoreError } from '../store/store-error.js';
import type { ApiKeyRow, StoreV1 } from '../store/store-v1.js';
import { assertAccountId } from './account-id.js';
import { ACTOR_RULE, isActor } from './actor.js';
import { DEFAULT_API_KEY_SCOPES, normalizeAuthScopes, type AuthScope } from './auth-scopes.js';
import { generateApiKey, parseApiKey } from './api-key-format.js';
import { createAuthenticationCache } from './authentication-cache.js';
import { constantTimeEqual } from './constant-time.js';

/** An API key as lists show it: never the secret, only its prefix and last four characters. */
export interface ApiKeyRecord {
  readonly object: 'api_key';
  readonly id: string;
  readonly account: string;
  readonly livemode: boolean;
  /** The key with its middle hidden, e.g. `pr_test_…x7Qa`. */
  readonly redacted: string;
  readonly last4: string;
  readonly description: string | null;
  /** Who acts with the key (e.g. `ops:alice`); the key's id unless one was given. */
  readonly actor: string;
  /** What the key may do (`runs:read`, `handoffs:answer:payout_bank`, …). */
  readonly scopes: readonly AuthScope[];
  readonly status: 'active' | 'revoked';
  readonly created_at: string;
  readonly revoked_at: string | null;
}

/** Who a valid key belongs to. */
export interface ApiKeyPrincipal {
  readonly account: string;
  readonly environment: RunEnvironment;
  /** The key's id (`key_…`), never the secret. */
  readonly keyId: string;
  /** Who acts with the key: approvals count distinct actors and evidence names them. */
  readonly actor: string;
  /** What the key may do. */
  readonly scopes: readonly AuthScope[];
}

/** What {@link ApiKeys.create} takes. */
export interface CreateApiKeyInput {
  readonly account: string;
  readonly environment: RunEnvironment;
  /** Shown in lists, e.g. `ci pipeline`. */
  readonly description?: string | null;
  /**
   * Who acts with the key, e.g. `ops:alice`: approvals count distinct actors (four eyes
   * needs two), and evidence names them. Several keys of one person share an actor.
   * @default the key's id (`key_…`)
   */
  readonly actor?: string;
  /**
   * What the key may do: `runs:read`, `runs:write`, `approvals:decide`,
   * `handoffs:answer`, `evidence:export`, `webhooks:manage`; approvals and handoffs may
   * be limited to one party (`handoffs:answer:payout_bank`).
   * @default every scope ({@link DEFAULT_API_KEY_SCOPES}), as keys had before scopes
   */
  readonly scopes?: readonly string[];
  /**
   * Register this existing key instead of generating one (e.g. a key from configuration).
   * It must be a well-formed key of `environment` with a valid checksum.
   */
  readonly secret?: string;
}

/** The built-in API key store: keys kept only as sha-256 digests. */
export interface ApiKeys {
  /** Creates a key; the secret is in the result and nowhere else, ever. */
  create(
    input: CreateApiKeyInput,
  ): Promise<{ readonly apiKey: ApiKeyRecord; readonly secret: string }>;
  /**
   * Makes sure a configured key (`secret` required) is an active key of the account:
   * registers it, or finds it already registered by an earlier start or another host
   * (`created: false`, keeping the actor and scopes it was registered with). Refuses a key
   * that is revoked or belongs to another account.
   */
  register(
    input: CreateApiKeyInput & { readonly secret: string },
  ): Promise<{ readonly apiKey: ApiKeyRecord; readonly created: boolean }>;
  /** The account's keys, oldest first. */
  list(
    account: string,
    options?: { readonly environment?: RunEnvironment },
  ): Promise<ApiKeyRecord[]>;
  /** Revokes a key for good; revoking a revoked key returns it unchanged. */
  revoke(account: string, id: string): Promise<ApiKeyRecord>;
  /** The owner of a presented key, or null for a malformed, unknown or revoked key. */
  authenticate(secret: string): Promise<ApiKeyPrincipal | null>;
}

/**
 * How long a host reuses a successful authentication (5 s): revoking on this host takes
 * effect at once; other hosts on the same PostgreSQL refuse the key within this time.
 */
export const DEFAULT_AUTHENTICATION_CACHE_MS = 5_000;

const redact = (environment: RunEnvironment, last4: string): string =>
  `pr_${environment}_…${last4}`;

/**
 * The API form of a stored key.
 *
 * @example
 * ```ts
 * toApiKeyRecord(row).redacted; // 'pr_test_…x7Qa'
 * ```
 */
export function toApiKeyRecord(row: ApiKeyRow): ApiKeyRecord {
  return {
    object: 'api_key',
    id: row.id,
    account: row.account,
    livemode: row.environment === 'live',
    redacted: redact(row.environment, row.last4),
    last4: row.last4,
    description: row.description,
    actor: row.actor,
    scopes: row.scopes as readonly AuthScope[],
    status: row.revoked_at === null ? 'active' : 'revoked',
    created_at: row.created_at,
    revoked_at: row.revoked_at,
  };
}

function assertDescription(description: string | null | undefined): string | null {
  if (description === undefined || description === null) return null;
  if (
    typeof description !== 'string' ||
    description.length > 200 ||
    /[\p{Cc}]/u.test(description)
  ) {
    throw new EngineError(
      'invalid_api_key_request',
      'description must be at most 200 characters without control characters.',
    );
  }
  return description;
}

/**
 * The API key store over a Store: create, list, revoke, authenticate. Lookups go by the
 * key's sha-256 digest and the stored digest is then compared in constant time.
 *
 * @example
 * ```ts
 * const keys = createApiKeys({ store, clock: systemClock, ids: randomIds() });
 * const { secret } = await keys.create({ account: 'acct_demo', environment: 'test' });
 * (await keys.authenticate(secret))?.account; // 'acct_demo'
 * await keys.register({ account: 'acct_demo', environment: 'test', secret: process.env.PROGRAMRUN_TEST_KEY! });
 * ```
 */
export function createApiKeys(options: {
  readonly store: StoreV1;
  readonly clock: Clock;
  readonly ids: IdGenerator;
  /** How long a successful authentication is reused without a store read. @default 5000 */
  readonly cacheMs?: number;
  /** Monotonic milliseconds for the cache. @default performance.now */
  readonly monotonicNow?: () => number;
}): ApiKeys {
  const { store, clock, ids } = options;
  const cache = createAuthenticationCache({
    ttlMs: options.cacheMs ?? DEFAULT_AUTHENTICATION_CACHE_MS,
    maxEntries: 10_000,
    now: options.monotonicNow ?? (() => performance.now()),
  });
  const keys: ApiKeys = {
    async create(input) {
      assertAccountId(input.account);
      if (input.environment !== 'test' && input.environment !== 'live') {
        throw new EngineError('invalid_api_key_request', 'environment must be test or live.');
      }
      const description = assertDescription(input.description);
      if (input.actor !== undefined && !isActor(input.actor)) {
        throw new EngineError('invalid_api_key_request', `actor: ${ACTOR_RULE}.`);
      }
      const scopes =
        input.scopes === undefined
          ? [...DEFAULT_API_KEY_SCOPES]
          : normalizeAuthScopes(input.scopes);
      const secret = input.secret ?? generateApiKey(input.environment);
      const parsed = parseApiKey(secret);
      if (!parsed || parsed.environment !== input.environment) {
        throw new EngineError(
          'invalid_api_key_request',
          `The key is not a well-formed pr_${input.environment}_ key with a valid checksum; create one with \`programrun keys create\` or generateApiKey().`,
        );
      }
      const id = ids.apiKey();
      const row: ApiKeyRow = {
        id,
        account: input.account,
        environment: input.environment,
        secret_hash: sha256Digest(secret),
        last4: secret.slice(-4),
        description,
        actor: input.actor ?? id,
        scopes,
        created_at: clock.now().toISOString(),
        revoked_at: null,
      };
      try {
        await store.transaction((tx) => tx.insertApiKey(row));
      } catch (error) {
        if (isStoreError(error, 'duplicate_key')) {
          throw new EngineError('invalid_api_key_request', 'This key is already registered.');
        }
        throw error;
      }
      return { apiKey: toApiKeyRecord(row), secret };
    },

    async register(input) {
      const existing = async (): Promise<ApiKeyRecord | undefined> => {
        const row = await store.transaction((tx) =>
          tx.findApiKeyByHash(sha256Digest(input.secret)),
        );
        if (!row) return undefined;
        if (
          row.account !== input.account ||
          row.environment !== input.environment ||
          row.revoked_at !== null
        ) {
          throw new EngineError(
            'invalid_api_key_request',
            `This key is registered ${row.revoked_at !== null ? 'and revoked' : 'to another account or environment'}; use another key.`,
          );
        }
        return toApiKeyRecord(row);
      };
      const found = await existing();
      if (found) return { apiKey: found, created: false };
      try {
        return { apiKey: (await keys.create(input)).apiKey, created: true };
      } catch (error) {
        // Another host registered it between our lookup and our insert.
        const raced = await existing();
        if (raced) return { apiKey: raced, created: false };
        throw error;
      }
    },

    async list(account, listOptions = {}) {
      assertAccountId(account);
      const rows = await store.transaction((tx) => tx.listApiKeys(account));
      return rows
        .filter((row) => !listOptions.environment || row.environment === listOptions.environment)
        .map(toApiKeyRecord);
    },

    async revoke(account, id) {
      assertAccountId(account);
      const record = await store.transaction(async (tx) => {
        const row = await tx.getApiKey(account, id);
        if (!row)
          throw new EngineError('api_key_not_found', `No API key ${id} in account ${account}.`);
        if (row.revoked_at !== null) return toApiKeyRecord(row);
        const revoked: ApiKeyRow = { ...row, revoked_at: clock.now().toISOString() };
        await tx.updateApiKey(revoked);
        return toApiKeyRecord(revoked);
      });
      // After the commit, so a request between the two cannot put the key back.
      cache.forgetKey(id);
      return record;
    },

    async authenticate(secret) {
      if (typeof secret !== 'string' || !parseApiKey(secret)) return null;
      const presented = sha256Digest(secret);
      const cached = cache.get(presented);
      if (cached) return cached;
      const row = await store.transaction((tx) => tx.findApiKeyByHash(presented));
      if (!row || !constantTimeEqual(row.secret_hash, presented) || row.revoked_at !== null) {
        return null;
      }
      const principal: ApiKeyPrincipal = {
        account: row.account,
        environment: row.environment,
        keyId: row.id,
        actor: row.actor,
        scopes: row.scopes as readonly AuthScope[],
      };
      cache.set(presented, principal);
      return principal;
    },
  };
  return keys;
}
