import {
  AUTH_SCOPES,
  assertAccountId,
  isActor,
  isAuthScope,
  normalizeAuthScopes,
} from '@programrun/engine';
import { HttpError } from '../errors/http-error.js';
import type { AuthenticatedCaller, Principal } from './principal.js';

function isValidCaller(caller: AuthenticatedCaller): boolean {
  try {
    assertAccountId(caller.account);
  } catch {
    return false;
  }
  return (
    (caller.environment === 'test' || caller.environment === 'live') &&
    typeof caller.credentialId === 'string' &&
    caller.credentialId.length > 0 &&
    (caller.actor === undefined || isActor(caller.actor)) &&
    (caller.scopes === undefined ||
      (Array.isArray(caller.scopes) && caller.scopes.every((scope) => isAuthScope(scope))))
  );
}

/**
 * The principal of what an `authenticate` hook returned, checked so a host bug cannot put
 * objects in a malformed account or environment or grant an unknown scope (answered 500
 * `invalid_principal`). Without an actor the credential id stands in; without scopes the
 * caller holds every scope.
 */
export function toPrincipal(caller: AuthenticatedCaller): Principal {
  if (!isValidCaller(caller)) {
    throw new HttpError(
      'invalid_principal',
      "The host's authenticate hook returned an invalid principal; it must be { account, environment: 'test' | 'live', credentialId, actor?, scopes? } (an actor of 1–128 characters without control characters, known scopes) or null.",
    );
  }
  return {
    account: caller.account,
    environment: caller.environment,
    credentialId: caller.credentialId,
    actor: caller.actor ?? caller.credentialId,
    scopes:
      caller.scopes === undefined
        ? [...AUTH_SCOPES]
        : caller.scopes.length === 0
          ? []
          : normalizeAuthScopes(caller.scopes),
  };
}
