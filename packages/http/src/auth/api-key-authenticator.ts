import type { ApiKeys } from '@programrun/engine';
import type { Authenticate } from './principal.js';

const BEARER = /^Bearer[ \t]+([\x21-\x7e]+)[ \t]*$/i;
const BEARER_CREDENTIALS = /^Bearer[ \t]+(\S.*)$/i;

/**
 * The token of an `Authorization: Bearer <token>` header; null when there is none or the
 * header has another form.
 *
 * @example
 * ```ts
 * bearerToken(new Request('http://x', { headers: { authorization: 'Bearer pr_test_…' } })); // 'pr_test_…'
 * ```
 */
export function bearerToken(request: Request): string | null {
  const match = BEARER.exec(request.headers.get('authorization') ?? '');
  return match ? match[1]! : null;
}

/**
 * What a request presents as Bearer credentials, well-formed or not (`Bearer x y` too);
 * null when it presents none: no `Authorization`, another scheme, or `Bearer` alone. Per
 * RFC 6750 only presented credentials can be an `invalid_token`.
 *
 * @example
 * ```ts
 * presentedBearerCredentials(new Request('http://x', { headers: { authorization: 'Basic abc' } })); // null
 * ```
 */
export function presentedBearerCredentials(request: Request): string | null {
  const match = BEARER_CREDENTIALS.exec((request.headers.get('authorization') ?? '').trim());
  return match ? match[1]! : null;
}

/**
 * The default authenticator: Bearer API keys from the accounts' key store
 * (`accounts.apiKeys`). Keys are looked up by digest and compared in constant time;
 * missing, malformed, unknown and revoked keys all resolve to null. The principal carries
 * the key's actor and scopes.
 *
 * @example
 * ```ts
 * createHandler({ engine, authenticate: createKeyStoreAuthenticator(accounts.apiKeys) }); // the default with `accounts`
 * ```
 */
export function createKeyStoreAuthenticator(apiKeys: ApiKeys): Authenticate {
  return async (request) => {
    const token = bearerToken(request);
    if (token === null) return null;
    const principal = await apiKeys.authenticate(token);
    return principal
      ? {
          account: principal.account,
          environment: principal.environment,
          credentialId: principal.keyId,
          actor: principal.actor,
          scopes: principal.scopes,
        }
      : null;
  };
}
