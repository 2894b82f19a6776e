import { HttpError } from '../errors/http-error.js';
import { presentedBearerCredentials } from './api-key-authenticator.js';

/**
 * The 401 for a request that did not authenticate (RFC 6750): `unauthorized` with a bare
 * challenge when it presented no Bearer credentials, `invalid_token` with
 * `error="invalid_token"` when it presented some that are not valid. Every invalid token
 * gets the same body, whatever was wrong with it.
 */
export function unauthenticated(request: Request): HttpError {
  if (presentedBearerCredentials(request) === null) {
    return new HttpError(
      'unauthorized',
      'Send Authorization: Bearer <key> with a programrun API key.',
      { headers: { 'www-authenticate': 'Bearer realm="programrun"' } },
    );
  }
  return new HttpError('invalid_token', 'The bearer token is not an active programrun API key.', {
    headers: { 'www-authenticate': 'Bearer realm="programrun", error="invalid_token"' },
  });
}
