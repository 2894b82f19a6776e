import type { Scope } from '@programrun/engine';

/** Who is calling: the account and environment every object is scoped to. */
export interface Principal extends Scope {
  /** Identifies the credential for logs, never the secret itself (e.g. `pr_test_…x7Qa`). */
  readonly keyHint: string;
}

/**
 * Resolves the caller of a request, or null when it is not authenticated. Hosts with
 * their own auth pass one of these; the built-in key authenticator is the default.
 */
export type Authenticate = (request: Request) => Principal | null | Promise<Principal | null>;
