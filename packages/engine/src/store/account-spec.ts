import type { RunEnvironment } from '@programrun/dsl';
import type { Scope } from './run-spec.js';

/** An API key as stored: never the secret, only its digest and what identifies it to people. */
export interface ApiKeyRow {
  /** `key_…`: names the key in lists, logs and rate limits. */
  readonly id: string;
  readonly account: string;
  /** From the key's prefix: `pr_test_…` keys are `test`, `pr_live_…` keys `live`. */
  readonly environment: RunEnvironment;
  /** `sha256:<hex>` of the whole key; the lookup index (unique). */
  readonly secret_hash: string;
  /** Last four characters of the key, to tell keys apart. */
  readonly last4: string;
  readonly description: string | null;
  /**
   * Who acts with the key (e.g. `ops:alice`): approvals count distinct actors and
   * evidence names them. The key's id when none was given at creation.
   */
  readonly actor: string;
  /**
   * What the key may do (`runs:read`, `approvals:decide:payments_ops`, …); every scope
   * for keys created without a list and for keys older than scopes.
   */
  readonly scopes: readonly string[];
  readonly created_at: string;
  /** Set once, when the key is revoked; a revoked key never authenticates again. */
  readonly revoked_at: string | null;
}

/**
 * An account's issuer activation of a restricted scenario (by scenario name, every
 * version): until it is active, live runs of that scenario wait `suspended` in intake.
 */
export interface IssuerActivationRow {
  readonly account: string;
  /** Scenario name without version, e.g. `reserve-usd-cycle`. */
  readonly scenario: string;
  readonly status: 'active' | 'revoked';
  /** The issuer's reference for the activation (agreement, onboarding case). */
  readonly reference: string;
  readonly activated_at: string;
  readonly revoked_at: string | null;
}

/** A request-access lead, linked to a client session (it unlocks evidence export). */
export interface AccessRequestRow {
  readonly id: string;
  readonly account: string;
  readonly environment: RunEnvironment;
  readonly session_id: string;
  readonly name: string;
  readonly email: string;
  readonly company: string;
  readonly use_case: string;
  readonly created_at: string;
}

/** API keys, issuer activations and request-access leads of accounts. */
export interface AccountOperations {
  /** Inserts a key; throws `duplicate_key` when the id or the secret hash exists. */
  insertApiKey(key: ApiKeyRow): Promise<void>;
  /** The key with this secret hash (revoked or not), in any account. */
  findApiKeyByHash(secretHash: string): Promise<ApiKeyRow | undefined>;
  getApiKey(account: string, id: string): Promise<ApiKeyRow | undefined>;
  /** Keys of an account, oldest first. */
  listApiKeys(account: string): Promise<ApiKeyRow[]>;
  /** Replaces a key that exists (revocation). */
  updateApiKey(key: ApiKeyRow): Promise<void>;

  /**
   * Reads the activation of (account, scenario) **and holds it until the transaction
   * ends**: another transaction locking the same pair waits for this one to commit or roll
   * back, then reads what it wrote. It serializes an activation with the creations that
   * read it, so no live run is left suspended by a race. Undefined when there is none.
   */
  lockIssuerActivation(account: string, scenario: string): Promise<IssuerActivationRow | undefined>;
  /** Inserts or replaces the activation of (account, scenario). */
  putIssuerActivation(activation: IssuerActivationRow): Promise<void>;
  /** Activations of an account, by scenario name. */
  listIssuerActivations(account: string): Promise<IssuerActivationRow[]>;

  /** Inserts a lead; throws `duplicate_key` when the scope already has one for the session. */
  insertAccessRequest(request: AccessRequestRow): Promise<void>;
  getAccessRequestBySession(scope: Scope, sessionId: string): Promise<AccessRequestRow | undefined>;
}
