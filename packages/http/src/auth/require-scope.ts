import { grantsScope, type BaseAuthScope } from '@programrun/engine';
import { HttpError } from '../errors/http-error.js';
import type { Principal } from './principal.js';

/**
 * The 403 `insufficient_scope` for a missing scope, with the RFC 6750 challenge naming it
 * (`scope="handoffs:answer:payout_bank"`).
 */
export function insufficientScope(scope: string, detail: string): HttpError {
  return new HttpError('insufficient_scope', detail, {
    headers: {
      'www-authenticate': `Bearer realm="programrun", error="insufficient_scope", scope="${scope}"`,
    },
  });
}

/**
 * Refuses a principal without the scope a route needs (a party-limited form of it counts;
 * the party is checked where the step is known).
 */
export function requireScope(principal: Principal, scope: BaseAuthScope): void {
  if (!grantsScope(principal.scopes, scope)) {
    throw insufficientScope(
      scope,
      `This request needs the ${scope} scope, which credential ${principal.credentialId} does not hold.`,
    );
  }
}
