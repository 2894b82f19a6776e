import { LIFECYCLE_EVENT_TYPES } from '../lifecycle/event-types.js';

/** Account-level event types (not about one run). */
export const ACCOUNT_EVENT_TYPES = {
  'webhook_endpoint.disabled':
    "An endpoint stopped receiving events: it answered 410 Gone, or every attempt failed for a whole retry schedule. Sent to the account's other endpoints.",
} as const;

/** Every event type a webhook endpoint can subscribe to, with its meaning. */
export const WEBHOOK_EVENT_TYPES: Readonly<Record<string, string>> = {
  ...LIFECYCLE_EVENT_TYPES,
  ...ACCOUNT_EVENT_TYPES,
};

/**
 * Why an `enabled_events` entry is not valid, or null when it is: `*`, an event type, or a
 * prefix ending in `.*` that matches at least one type (`program_run.handoff.*`).
 *
 * @example
 * ```ts
 * enabledEventProblem('program_run.handoff.*'); // null
 * enabledEventProblem('program_run.nope'); // 'is not an event type …'
 * ```
 */
export function enabledEventProblem(pattern: string): string | null {
  if (pattern === '*' || pattern in WEBHOOK_EVENT_TYPES) return null;
  if (pattern.endsWith('.*')) {
    const prefix = pattern.slice(0, -1);
    if (Object.keys(WEBHOOK_EVENT_TYPES).some((type) => type.startsWith(prefix))) return null;
  }
  return `is not an event type, a prefix such as program_run.handoff.*, or *`;
}

/**
 * Whether an endpoint subscribed with `patterns` receives events of `type`.
 *
 * @example
 * ```ts
 * matchesEnabledEvents(['program_run.handoff.*'], 'program_run.handoff.failed'); // true
 * ```
 */
export function matchesEnabledEvents(patterns: readonly string[], type: string): boolean {
  return patterns.some(
    (pattern) =>
      pattern === '*' ||
      pattern === type ||
      (pattern.endsWith('.*') && type.startsWith(pattern.slice(0, -1))),
  );
}
