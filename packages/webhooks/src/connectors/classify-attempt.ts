import {
  PermanentConnectorError,
  TransientConnectorError,
  type HandoffAnswer,
} from '@programrun/engine';
import type { DeliveryAttemptResult, DeliveryError } from '../send-webhook.js';
import { parseHandoffAnswer } from './parse-answer.js';

/** The largest answer body a connector reads: 64 KiB. */
export const HANDOFF_ANSWER_LIMIT = 64 * 1024;

/** How much of a 4xx body a `PermanentConnectorError` keeps as `problem`: 1 KiB. */
const PROBLEM_LIMIT = 1024;

/** The longest `Retry-After` wait a connector passes on: one hour. */
export const RETRY_AFTER_LIMIT_MS = 60 * 60 * 1000;

/** The three HTTP-date forms all start with a day name (`Sun, 06 Nov 1994 …`). */
const HTTP_DATE = /^[A-Za-z]{3,9},? /;

/**
 * A `Retry-After` header as milliseconds to wait from `now`: delta-seconds (`120`) or an
 * HTTP-date; capped at one hour; null when absent, invalid or in the past (`'30'` →
 * 30 000; an HTTP-date one minute ahead → 60 000; `'soon'` → null).
 */
export function parseRetryAfter(value: string | null | undefined, now: Date): number | null {
  const text = (value ?? '').trim();
  let ms: number;
  if (/^\d+$/.test(text)) {
    ms = Number(text) * 1000;
  } else if (HTTP_DATE.test(text)) {
    ms = Date.parse(text) - now.getTime();
  } else {
    return null;
  }
  if (!Number.isFinite(ms) || ms < 0) return null;
  return Math.min(Math.ceil(ms), RETRY_AFTER_LIMIT_MS);
}

function failureOf(error: DeliveryError, status: number | null): never {
  switch (error.code) {
    case 'timeout':
    case 'aborted':
      throw new TransientConnectorError('timeout', error.message, status);
    case 'connection_failed':
    case 'tls_error':
      throw new TransientConnectorError('connection', error.message, status);
    case 'redirect_not_followed':
      throw new PermanentConnectorError(
        'redirect',
        `The partner answered ${status} (a redirect), and connectors never follow redirects.`,
        status === null ? {} : { status },
      );
    default:
      // forbidden_address, invalid_url, https_required, credentials_in_url, invalid_request
      throw new PermanentConnectorError(error.code, error.message);
  }
}

function answerOf(body: string, status: number): HandoffAnswer | string {
  if (Buffer.byteLength(body, 'utf8') > HANDOFF_ANSWER_LIMIT) {
    return `the body is larger than ${HANDOFF_ANSWER_LIMIT} bytes`;
  }
  const parsed = parseHandoffAnswer(body);
  return parsed.ok ? parsed.answer : `${parsed.problem} (HTTP ${status})`;
}

/**
 * Turns one `sendWebhook` result into a connector's result: 200 with a valid answer →
 * the answer; 202 → `'accepted'`; 409 with a valid answer → that answer (the partner
 * replays what it stored under the key); 408, 409 without an answer, 429, 5xx, other 2xx,
 * invalid answers, timeouts, aborts and connection failures → `TransientConnectorError`;
 * redirects, other 4xx and refused URLs → `PermanentConnectorError`. A 429 or 5xx carries
 * the partner's `Retry-After` (relative to `now`, see `parseRetryAfter`) as `retryAfterMs`.
 *
 * @example
 * ```ts
 * classifyAttempt({ status: 202, latencyMs: 40, error: null, responseBody: '' }); // 'accepted'
 * ```
 */
export function classifyAttempt(
  result: DeliveryAttemptResult,
  now: Date = new Date(),
): HandoffAnswer | 'accepted' {
  const { status, error } = result;
  if (error !== null) failureOf(error, status);
  if (status === null) throw new TransientConnectorError('connection', 'No response arrived.');
  const body = result.responseBody ?? '';
  if (status === 202) return 'accepted';
  if (status === 200 || status === 409) {
    const answer = answerOf(body, status);
    if (typeof answer !== 'string') return answer;
    if (status === 409) {
      throw new TransientConnectorError(
        'in_progress',
        `The partner answered 409 without a stored answer (${answer}): the key is still in progress.`,
        status,
      );
    }
    throw new TransientConnectorError(
      'invalid_answer',
      `Invalid partner answer: ${answer}.`,
      status,
    );
  }
  if (status === 408) {
    throw new TransientConnectorError('timeout', 'The partner answered 408 (timeout).', status);
  }
  if (status === 429) {
    throw new TransientConnectorError(
      'rate_limited',
      'The partner answered 429.',
      status,
      parseRetryAfter(result.retryAfter, now),
    );
  }
  if (status >= 400 && status < 500) {
    const problem = Buffer.from(body, 'utf8').subarray(0, PROBLEM_LIMIT).toString('utf8');
    throw new PermanentConnectorError('http_4xx', `The partner refused the handoff (${status}).`, {
      status,
      problem,
    });
  }
  if (status >= 500 && status < 600) {
    throw new TransientConnectorError(
      'http_5xx',
      `The partner answered ${status}.`,
      status,
      parseRetryAfter(result.retryAfter, now),
    );
  }
  throw new TransientConnectorError(
    'invalid_answer',
    `The partner answered ${status}; a handoff expects 200, 202 or 409.`,
    status,
  );
}
