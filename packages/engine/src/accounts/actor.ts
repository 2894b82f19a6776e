/**
 * True when `value` can name an actor: the person or system behind a credential, as
 * approvals count and evidence records them (e.g. `ops:alice`, `partner:payout_bank`).
 * 1–128 characters without control or format characters, and no space at either end.
 *
 * @example
 * ```ts
 * isActor('ops:alice'); // true
 * isActor(' ops:alice'); // false
 * ```
 */
export function isActor(value: unknown): value is string {
  return (
    typeof value === 'string' &&
    value.length >= 1 &&
    value.length <= 128 &&
    value.trim() === value &&
    !/\p{C}/u.test(value)
  );
}

/**
 * What an actor must look like, for error messages.
 *
 * @example
 * ```ts
 * ACTOR_RULE; // 'an actor is 1–128 characters …'
 * ```
 */
export const ACTOR_RULE =
  'an actor is 1–128 characters without control characters or spaces at either end (e.g. ops:alice)';
