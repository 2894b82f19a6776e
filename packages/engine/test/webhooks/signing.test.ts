import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { Webhook } from 'standardwebhooks';
import {
  DEFAULT_RETRY_SCHEDULE,
  generateWebhookSecret,
  matchesEnabledEvents,
  signWebhook,
  verifyWebhookSignature,
  EVENT_TYPE_MEANINGS,
} from '../../src/index.js';
import { enabledEventProblem } from '../../src/webhooks/event-filter.js';
import { retryDelayMs } from '../../src/webhooks/retry-schedule.js';
import { activeSecrets, signatureHeader } from '../../src/webhooks/webhook-secret.js';

// Known-answer vectors from standard-webhooks/standard-webhooks @ b2fa7b8
// (libraries/javascript/src/webhook.test.ts, libraries/rust/src/lib.rs::test_sign).
const VECTORS = [
  {
    secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
    id: 'msg_p5jXN8AQM9LWM0D4loKWxJek',
    timestamp: 1614265330,
    payload: '{"test": 2432232314}',
    signature: 'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=',
  },
  {
    secret: 'whsec_C2FVsBQIhrscChlQIMV+b5sSYspob7oD',
    id: 'msg_27UH4WbU6Z5A5EzD8u03UvzRbpk',
    timestamp: 1649367553,
    payload: '{"email":"test@example.com","username":"test_user"}',
    signature: 'v1,tZ1I4/hDygAJgO5TYxiSd6Sd0kDW6hPenDe+bTa3Kkw=',
  },
];

describe('Standard Webhooks signing', () => {
  it.each(VECTORS)('matches the known answer for $id', (vector) => {
    expect(signWebhook(vector.secret, vector.id, vector.timestamp, vector.payload)).toBe(
      vector.signature,
    );
    expect(
      verifyWebhookSignature(
        vector.secret,
        vector.id,
        vector.timestamp,
        vector.payload,
        vector.signature,
      ),
    ).toBe(true);
  });

  it('makes whsec_ secrets of 32 random bytes that the official package accepts', () => {
    const secret = generateWebhookSecret();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(Buffer.from(secret.slice(6), 'base64')).toHaveLength(32);
    expect(generateWebhookSecret()).not.toBe(secret);
  });

  it('produces headers the standardwebhooks package verifies, for any body, and refuses any change', () => {
    fc.assert(
      fc.property(fc.json(), fc.string({ minLength: 1, maxLength: 40 }), (body, suffix) => {
        const secret = generateWebhookSecret();
        const id = `evt_${Buffer.from(suffix).toString('hex')}`;
        const timestamp = Math.floor(Date.now() / 1000);
        const headers = {
          'webhook-id': id,
          'webhook-timestamp': String(timestamp),
          'webhook-signature': signWebhook(secret, id, timestamp, body),
        };
        expect(() => new Webhook(secret).verify(body, headers)).not.toThrow();
        expect(() => new Webhook(secret).verify(`${body} `, headers)).toThrow();
        expect(() =>
          new Webhook(secret).verify(body, { ...headers, 'webhook-id': `${id}x` }),
        ).toThrow();
      }),
      { numRuns: 100 },
    );
  });

  it('signs with every secret still inside its rotation overlap', () => {
    const now = new Date('2026-01-01T12:00:00.000Z');
    const secrets = [
      { secret: generateWebhookSecret(), created_at: '', expires_at: null },
      { secret: generateWebhookSecret(), created_at: '', expires_at: '2026-01-01T13:00:00.000Z' },
      { secret: generateWebhookSecret(), created_at: '', expires_at: '2026-01-01T12:00:00.000Z' },
    ];
    const header = signatureHeader(
      activeSecrets(secrets, now).map((row) => row.secret),
      'evt_1',
      1,
      '{}',
    );
    expect(header.split(' ')).toEqual([
      signWebhook(secrets[0]!.secret, 'evt_1', 1, '{}'),
      signWebhook(secrets[1]!.secret, 'evt_1', 1, '{}'),
    ]);
  });
});

describe('event type subscriptions', () => {
  it('matches exact types, prefixes and *', () => {
    expect(matchesEnabledEvents(['*'], 'program_run.created')).toBe(true);
    expect(matchesEnabledEvents(['program_run.handoff.*'], 'program_run.handoff.failed')).toBe(
      true,
    );
    expect(matchesEnabledEvents(['program_run.handoff.*'], 'program_run.approval.granted')).toBe(
      false,
    );
    expect(matchesEnabledEvents(['program_run.completed'], 'program_run.completed')).toBe(true);
    expect(matchesEnabledEvents(['program_run.completed'], 'program_run.cancelled')).toBe(false);
  });

  it('accepts every catalogue type and refuses unknown ones', () => {
    for (const type of Object.keys(EVENT_TYPE_MEANINGS))
      expect(enabledEventProblem(type)).toBeNull();
    expect(enabledEventProblem('program_run.*')).toBeNull();
    expect(enabledEventProblem('program_run.nope')).toMatch(/not an event type/);
    expect(enabledEventProblem('nothing.*')).toMatch(/not an event type/);
  });
});

describe('retry schedule', () => {
  it('spans about three days in live and about an hour in test', () => {
    const total = (list: readonly number[]) => list.reduce((sum, seconds) => sum + seconds, 0);
    expect(total(DEFAULT_RETRY_SCHEDULE.live) / 86_400).toBeCloseTo(3, 0);
    expect(total(DEFAULT_RETRY_SCHEDULE.test) / 60).toBeGreaterThan(60);
    expect(total(DEFAULT_RETRY_SCHEDULE.test) / 60).toBeLessThan(80);
  });

  it('waits longer after each failure, within ±20 % jitter, and stops when the schedule ends', () => {
    fc.assert(
      fc.property(
        fc.constantFrom('live' as const, 'test' as const),
        fc.integer({ min: 1, max: 12 }),
        fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }),
        (environment, attempts, random) => {
          const base = DEFAULT_RETRY_SCHEDULE[environment][attempts - 1];
          const delay = retryDelayMs(DEFAULT_RETRY_SCHEDULE, environment, attempts, () => random);
          if (base === undefined) {
            expect(delay).toBeNull();
            return;
          }
          expect(delay).toBeGreaterThanOrEqual(Math.floor(base * 800));
          expect(delay).toBeLessThanOrEqual(Math.ceil(base * 1200));
          const previous = DEFAULT_RETRY_SCHEDULE[environment][attempts - 2];
          if (previous !== undefined) expect(base).toBeGreaterThanOrEqual(previous);
        },
      ),
      { numRuns: 300 },
    );
  });
});
