// What the signed-in principal may do, from its scopes (the API decides; the console only
// hides actions it would refuse). Scopes: runs:read, runs:write, approvals:decide[:party],
// handoffs:answer[:party], evidence:export, webhooks:manage.

/** A scope the console asks about. */
export type ConsoleScope =
  | 'runs:read'
  | 'runs:write'
  | 'approvals:decide'
  | 'handoffs:answer'
  | 'evidence:export'
  | 'webhooks:manage';

const PARTY_SCOPES: readonly string[] = ['approvals:decide', 'handoffs:answer'];

/**
 * True when `scopes` grant `scope`. For `approvals:decide` and `handoffs:answer`, `party`
 * narrows the question: a party id (or a list: any of them, e.g. a step's approvers) is
 * granted by the unlimited scope or `<scope>:<party>`; with no party, any grant of the
 * scope counts (the principal may do it for some party).
 */
export function can(
  scopes: readonly string[],
  scope: ConsoleScope,
  party?: string | readonly string[] | null,
): boolean {
  if (scopes.includes(scope)) return true;
  if (!PARTY_SCOPES.includes(scope)) return false;
  if (party === undefined) return scopes.some((held) => held.startsWith(`${scope}:`));
  if (party === null) return false;
  const parties = typeof party === 'string' ? [party] : party;
  return parties.some((one) => scopes.includes(`${scope}:${one}`));
}
