import type { Scope } from '@programrun/engine';

/** Who is calling: the account and environment every object is scoped to. */
export interface Principal extends Scope {
  /**
   * A stable id of the credential, never the secret: the API key id (`key_…`) for built-in
   * keys, or the host's own token or session id. Rate limits are per credential.
   */
  readonly credentialId: string;
}

/**
 * Resolves the caller of a request, or null when it is not authenticated. Hosts with
 * their own auth pass one of these; the built-in key authenticator is the default.
 */
export type Authenticate = (request: Request) => Principal | null | Promise<Principal | null>;
