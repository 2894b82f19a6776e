import type { AuthScope, Scope } from '@programrun/engine';

/**
 * Who is calling: the account and environment every object is scoped to, the credential,
 * the actor behind it and what it may do.
 */
export interface Principal extends Scope {
  /**
   * A stable id of the credential, never the secret: the API key id (`key_…`) for built-in
   * keys, or the host's own token or session id. Rate limits are per credential.
   */
  readonly credentialId: string;
  /**
   * Who acts (e.g. `ops:alice`): approvals count distinct actors, never a request field,
   * and evidence names the actor of every decision and partner answer. For built-in keys,
   * the actor given at key creation (the key id by default).
   */
  readonly actor: string;
  /** What the caller may do (`runs:read`, `handoffs:answer:payout_bank`, …). */
  readonly scopes: readonly AuthScope[];
}

/**
 * What an `authenticate` hook returns for a caller: a principal whose actor and scopes
 * may be left out. Without an actor the credential id stands in; without scopes the
 * caller holds every scope (as before principals had scopes), so hosts limiting what
 * callers may do return `scopes`.
 */
export type AuthenticatedCaller = Omit<Principal, 'actor' | 'scopes'> & {
  readonly actor?: string;
  readonly scopes?: readonly string[];
};

/**
 * Resolves the caller of a request, or null when it is not authenticated. Hosts with
 * their own auth pass one of these; the built-in key authenticator is the default.
 */
export type Authenticate = (
  request: Request,
) => AuthenticatedCaller | null | Promise<AuthenticatedCaller | null>;
