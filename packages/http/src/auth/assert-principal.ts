import { assertAccountId } from '@programrun/engine';
import { HttpError } from '../errors/http-error.js';
import type { Principal } from './principal.js';

/**
 * Checks what an `authenticate` hook returned, so a host bug cannot put objects in a
 * malformed account or environment: answered 500 `invalid_principal`.
 */
export function assertPrincipal(principal: Principal): void {
  let valid =
    (principal.environment === 'test' || principal.environment === 'live') &&
    typeof principal.credentialId === 'string' &&
    principal.credentialId.length > 0;
  try {
    assertAccountId(principal.account);
  } catch {
    valid = false;
  }
  if (!valid) {
    throw new HttpError(
      'invalid_principal',
      "The host's authenticate hook returned an invalid principal; it must be { account, environment: 'test' | 'live', credentialId } or null.",
    );
  }
}
