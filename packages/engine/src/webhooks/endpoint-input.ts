import type { RunEnvironment } from '@programrun/dsl';
import { EngineError, type FieldIssue } from '../errors.js';
import { checkEndpointUrl } from './url-policy/endpoint-url.js';
import { enabledEventProblem } from './event-filter.js';

/** What registering an endpoint takes (`POST /v1/webhook-endpoints`). */
export interface CreateWebhookEndpointInput {
  /** Where events go: https in live (loopback http only when the host allows it). */
  readonly url: string;
  /** Event types, prefixes such as `program_run.handoff.*`, or `*` (the default). */
  readonly enabled_events?: readonly string[] | undefined;
  readonly description?: string | null | undefined;
}

/** What updating an endpoint takes; absent fields stay as they are. */
export interface UpdateWebhookEndpointInput {
  readonly url?: string | undefined;
  readonly enabled_events?: readonly string[] | undefined;
  readonly description?: string | null | undefined;
  /** `enabled` re-enables a disabled endpoint (its failure history is cleared); `disabled` pauses it. */
  readonly status?: 'enabled' | 'disabled' | undefined;
}

/** Longest description kept. */
const MAX_DESCRIPTION = 500;

/** How endpoint URLs are checked: the environment and whether loopback is allowed. */
export interface EndpointUrlPolicy {
  readonly environment: RunEnvironment;
  readonly allowLoopback: boolean;
}

function fail(issues: FieldIssue[]): never {
  throw new EngineError(
    'invalid_webhook_endpoint',
    `The webhook endpoint is not valid: ${issues.map((issue) => `${issue.pointer} ${issue.message.replace(/\.$/, '')}`).join('; ')}.`,
    issues,
  );
}

/**
 * Checks an endpoint's fields and returns them normalised (events deduplicated, `*` by
 * default); throws `invalid_webhook_endpoint` naming every bad field.
 */
export function validateEndpointFields(
  input: UpdateWebhookEndpointInput,
  policy: EndpointUrlPolicy,
): { url?: string; enabled_events?: string[]; description?: string | null } {
  const issues: FieldIssue[] = [];
  const result: { url?: string; enabled_events?: string[]; description?: string | null } = {};
  if (input.url !== undefined) {
    const checked =
      typeof input.url === 'string'
        ? checkEndpointUrl(input.url, policy)
        : { ok: false as const, code: 'invalid_url', message: 'must be a string' };
    if (checked.ok) result.url = checked.url.href;
    else issues.push({ pointer: '/url', code: checked.code, message: checked.message });
  }
  if (input.enabled_events !== undefined) {
    if (!Array.isArray(input.enabled_events) || input.enabled_events.length === 0) {
      issues.push({
        pointer: '/enabled_events',
        code: 'invalid_value',
        message: 'must be a non-empty list of event types',
      });
    } else {
      input.enabled_events.forEach((pattern, index) => {
        const problem =
          typeof pattern === 'string' ? enabledEventProblem(pattern) : 'must be a string';
        if (problem !== null)
          issues.push({
            pointer: `/enabled_events/${index}`,
            code: 'unknown_event_type',
            message: problem,
          });
      });
      result.enabled_events = [...new Set<string>(input.enabled_events)];
    }
  }
  if (input.description !== undefined && input.description !== null) {
    if (typeof input.description !== 'string' || input.description.length > MAX_DESCRIPTION) {
      issues.push({
        pointer: '/description',
        code: 'invalid_value',
        message: `must be a string of at most ${MAX_DESCRIPTION} characters`,
      });
    } else result.description = input.description;
  } else if (input.description === null) result.description = null;
  if (issues.length > 0) fail(issues);
  return result;
}

/**
 * The overlap of a secret rotation in seconds: 0 to 7 days, 24 hours by default.
 */
export function rotationOverlapSeconds(value: unknown): number {
  if (value === undefined || value === null) return 86_400;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0 || value > 604_800) {
    fail([
      {
        pointer: '/overlap_seconds',
        code: 'invalid_value',
        message: 'must be a whole number of seconds from 0 to 604800 (7 days)',
      },
    ]);
  }
  return value;
}
