import { EVENT_TYPE_MEANINGS } from '../lifecycle/event-types.js';

/**
 * Why an `enabled_events` entry is not valid, or null when it is: `*`, an event type, or a
 * prefix ending in `.*` that matches at least one type (`program_run.handoff.*`).
 */
export function enabledEventProblem(pattern: string): string | null {
  if (pattern === '*' || pattern in EVENT_TYPE_MEANINGS) return null;
  if (pattern.endsWith('.*')) {
    const prefix = pattern.slice(0, -1);
    if (Object.keys(EVENT_TYPE_MEANINGS).some((type) => type.startsWith(prefix))) return null;
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
