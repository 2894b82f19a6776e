/**
 * A command that cannot run as asked (bad options, unreadable input, no suitable store):
 * the CLI prints its message on one line and exits 2.
 *
 * @example
 * ```ts
 * throw new UsageError('--account is required');
 * ```
 */
export class UsageError extends Error {}
