import { describe, expect, it } from 'vitest';
import { TransientConnectorError } from '@programrun/engine';
import {
  classifyAttempt,
  parseRetryAfter,
  RETRY_AFTER_LIMIT_MS,
} from '../src/connectors/classify-attempt.js';
import type { DeliveryAttemptResult } from '../src/send-webhook.js';

const NOW = new Date('2026-03-02T09:00:00.000Z');

/** The TransientConnectorError `classifyAttempt` throws for `result` at NOW. */
function transientOf(result: DeliveryAttemptResult): TransientConnectorError {
  try {
    classifyAttempt(result, NOW);
  } catch (error) {
    expect(error).toBeInstanceOf(TransientConnectorError);
    return error as TransientConnectorError;
  }
  throw new Error('expected the attempt to be transient');
}

const answered = (status: number, retryAfter: string | null): DeliveryAttemptResult => ({
  status,
  latencyMs: 5,
  error: null,
  responseBody: '',
  retryAfter,
});

describe('parseRetryAfter', () => {
  it('reads delta-seconds', () => {
    expect(parseRetryAfter('0', NOW)).toBe(0);
    expect(parseRetryAfter('30', NOW)).toBe(30_000);
    expect(parseRetryAfter(' 120 ', NOW)).toBe(120_000);
  });

  it('reads an HTTP-date relative to now', () => {
    expect(parseRetryAfter('Mon, 02 Mar 2026 09:01:30 GMT', NOW)).toBe(90_000);
    expect(parseRetryAfter('Monday, 02-Mar-26 09:00:10 GMT', NOW)).toBe(10_000);
  });

  it('ignores absent, invalid and negative values, and dates in the past', () => {
    for (const value of [
      undefined,
      null,
      '',
      'soon',
      '-5',
      '1.5',
      '30s',
      '2026-03-02T09:01:00Z',
      'Mon, 99 Foo 2026 99:99:99 GMT',
      'Mon, 02 Mar 2026 08:59:00 GMT',
    ]) {
      expect(parseRetryAfter(value, NOW), String(value)).toBeNull();
    }
  });

  it('caps the wait at one hour', () => {
    expect(RETRY_AFTER_LIMIT_MS).toBe(3_600_000);
    expect(parseRetryAfter('3601', NOW)).toBe(RETRY_AFTER_LIMIT_MS);
    expect(parseRetryAfter('99999999999999999999', NOW)).toBe(RETRY_AFTER_LIMIT_MS);
    expect(parseRetryAfter('Tue, 03 Mar 2026 09:00:00 GMT', NOW)).toBe(RETRY_AFTER_LIMIT_MS);
  });
});

describe('classifyAttempt: Retry-After', () => {
  it('carries a 429 Retry-After as retryAfterMs', () => {
    const error = transientOf(answered(429, '12'));
    expect(error.errorClass).toBe('rate_limited');
    expect(error.status).toBe(429);
    expect(error.retryAfterMs).toBe(12_000);
  });

  it('carries a 503 (and any 5xx) Retry-After HTTP-date as retryAfterMs', () => {
    const error = transientOf(answered(503, 'Mon, 02 Mar 2026 09:00:45 GMT'));
    expect(error.errorClass).toBe('http_5xx');
    expect(error.retryAfterMs).toBe(45_000);
    expect(transientOf(answered(500, '2')).retryAfterMs).toBe(2_000);
  });

  it('is null when the header is absent, invalid or past, and capped at one hour', () => {
    expect(transientOf(answered(429, null)).retryAfterMs).toBeNull();
    expect(transientOf({ status: 503, latencyMs: 5, error: null }).retryAfterMs).toBeNull();
    expect(transientOf(answered(503, 'later')).retryAfterMs).toBeNull();
    expect(transientOf(answered(429, 'Mon, 02 Mar 2026 08:00:00 GMT')).retryAfterMs).toBeNull();
    expect(transientOf(answered(429, '86400')).retryAfterMs).toBe(RETRY_AFTER_LIMIT_MS);
  });

  it('ignores Retry-After on other transient answers', () => {
    expect(transientOf(answered(408, '30')).retryAfterMs).toBeNull();
    expect(transientOf(answered(409, '30')).retryAfterMs).toBeNull();
  });
});
