import { EngineError } from '../errors.js';

/**
 * What a credential may do. Each route of the HTTP API needs one of these; a credential
 * holds a list of them. `approvals:decide` and `handoffs:answer` may be limited to one
 * party of a scenario by a third segment (`handoffs:answer:payout_bank`).
 *
 * @example
 * ```ts
 * AUTH_SCOPES.includes('runs:read'); // true
 * ```
 */
export const AUTH_SCOPES = [
  'runs:read',
  'runs:write',
  'approvals:decide',
  'handoffs:answer',
  'evidence:export',
  'webhooks:manage',
] as const;

/** A scope without a party limit, as routes name what they need. */
export type BaseAuthScope = (typeof AUTH_SCOPES)[number];

/** The scopes that may be limited to one party. */
export type PartyAuthScope = 'approvals:decide' | 'handoffs:answer';

/**
 * A scope a credential holds: one of {@link AUTH_SCOPES}, or `approvals:decide:<party>` /
 * `handoffs:answer:<party>` for one party of the scenario (a snake_case party id).
 */
export type AuthScope = BaseAuthScope | `${PartyAuthScope}:${string}`;

/**
 * The scopes of an API key created without `scopes`, and of every key that existed
 * before keys had scopes: all of them, unlimited, so existing keys and test setups keep
 * working. Give live keys explicit scopes.
 *
 * @example
 * ```ts
 * DEFAULT_API_KEY_SCOPES.length; // 6
 * ```
 */
export const DEFAULT_API_KEY_SCOPES: readonly AuthScope[] = AUTH_SCOPES;

const PARTY_SCOPES: readonly string[] = ['approvals:decide', 'handoffs:answer'];
const PARTY_ID = /^[a-z][a-z0-9_]{0,62}$/;

/**
 * True when `value` is a scope: one of {@link AUTH_SCOPES}, or a party-limited
 * `approvals:decide:<party>` / `handoffs:answer:<party>`.
 *
 * @example
 * ```ts
 * isAuthScope('handoffs:answer:payout_bank'); // true
 * isAuthScope('runs:read:payout_bank'); // false: only approvals and handoffs take a party
 * ```
 */
export function isAuthScope(value: unknown): value is AuthScope {
  if (typeof value !== 'string') return false;
  if ((AUTH_SCOPES as readonly string[]).includes(value)) return true;
  const split = value.lastIndexOf(':');
  return PARTY_SCOPES.includes(value.slice(0, split)) && PARTY_ID.test(value.slice(split + 1));
}

/**
 * Why `value` is not a scope, in one line, for error messages.
 *
 * @example
 * ```ts
 * scopeProblem('runs:delete'); // 'unknown scope "runs:delete"; scopes are runs:read, …'
 * ```
 */
export function scopeProblem(value: unknown): string {
  const shown = typeof value === 'string' ? `"${value}"` : String(value);
  return `unknown scope ${shown}; scopes are ${AUTH_SCOPES.join(', ')}, and approvals:decide:<party> or handoffs:answer:<party> for one party (a snake_case party id)`;
}

/**
 * Checks a list of scopes and returns it without repeats, in a stable order (the order of
 * {@link AUTH_SCOPES}, party-limited ones after their base). Throws
 * `invalid_api_key_request` naming the first value that is not a scope, or an empty list.
 *
 * @example
 * ```ts
 * normalizeAuthScopes(['runs:read', 'approvals:decide', 'runs:read']); // ['runs:read', 'approvals:decide']
 * ```
 */
export function normalizeAuthScopes(values: readonly unknown[]): AuthScope[] {
  if (!Array.isArray(values) || values.length === 0) {
    throw new EngineError(
      'invalid_api_key_request',
      `scopes must name at least one scope: ${AUTH_SCOPES.join(', ')}.`,
    );
  }
  for (const value of values) {
    if (!isAuthScope(value))
      throw new EngineError('invalid_api_key_request', `${scopeProblem(value)}.`);
  }
  const rank = (scope: string): number =>
    AUTH_SCOPES.findIndex((base) => scope === base || scope.startsWith(`${base}:`));
  return [...new Set(values as AuthScope[])].sort(
    (a, b) => rank(a) - rank(b) || (a < b ? -1 : a > b ? 1 : 0),
  );
}

/**
 * True when the scopes allow a route that needs `required`: the scope itself, or (for
 * approvals and handoffs) the scope limited to any party; the party is checked later.
 *
 * @example
 * ```ts
 * grantsScope(['handoffs:answer:payout_bank'], 'handoffs:answer'); // true
 * grantsScope(['runs:read'], 'runs:write'); // false
 * ```
 */
export function grantsScope(scopes: readonly string[], required: BaseAuthScope): boolean {
  return scopes.some((scope) => scope === required || scope.startsWith(`${required}:`));
}

/**
 * True when the scopes allow `required` for at least one of `parties`: the unlimited
 * scope, or the scope limited to one of them.
 *
 * @example
 * ```ts
 * grantsPartyScope(['handoffs:answer:payout_bank'], 'handoffs:answer', ['payout_bank']); // true
 * grantsPartyScope(['approvals:decide:payments_ops'], 'approvals:decide', ['finance_control']); // false
 * ```
 */
export function grantsPartyScope(
  scopes: readonly string[],
  required: PartyAuthScope,
  parties: readonly string[],
): boolean {
  return scopes.some(
    (scope) => scope === required || parties.some((party) => scope === `${required}:${party}`),
  );
}
