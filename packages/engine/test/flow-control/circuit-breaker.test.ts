import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { createCircuitBreaker, type CallOutcome } from '../../src/index.js';

describe('createCircuitBreaker', () => {
  it('opens after failureThreshold consecutive failures, not before', () => {
    const breaker = createCircuitBreaker({ failureThreshold: 3, openMs: 1_000 });
    breaker.record('failure', 0);
    breaker.record('failure', 1);
    expect(breaker.state(1)).toEqual({ status: 'closed', consecutiveFailures: 2, posture: 'ok' });
    expect(breaker.canCall(1)).toBe(true);
    breaker.record('failure', 2);
    expect(breaker.state(2)).toEqual({
      status: 'open',
      consecutiveFailures: 3,
      openedAt: 2,
      retryAt: 1_002,
      posture: 'degraded',
    });
    expect(breaker.canCall(1_001)).toBe(false);
  });

  it('a success in between resets the count', () => {
    const breaker = createCircuitBreaker({ failureThreshold: 2, openMs: 1_000 });
    breaker.record('failure', 0);
    breaker.record('success', 1);
    breaker.record('failure', 2);
    expect(breaker.state(2).status).toBe('closed');
  });

  it('goes half-open at retryAt, lets halfOpenProbes calls through, closes on a success', () => {
    const breaker = createCircuitBreaker({ failureThreshold: 1, openMs: 500, halfOpenProbes: 2 });
    breaker.record('failure', 100);
    expect(breaker.state(599).status).toBe('open');
    expect(breaker.state(600)).toMatchObject({ status: 'half_open', posture: 'degraded' });
    expect([breaker.canCall(600), breaker.canCall(601), breaker.canCall(602)]).toEqual([
      true,
      true,
      false,
    ]);
    breaker.record('success', 650);
    expect(breaker.state(650)).toEqual({ status: 'closed', consecutiveFailures: 0, posture: 'ok' });
    expect(breaker.canCall(650)).toBe(true);
  });

  it('opens again for another openMs when a probe fails', () => {
    const breaker = createCircuitBreaker({ failureThreshold: 2, openMs: 500 });
    breaker.record('failure', 0);
    breaker.record('failure', 0);
    expect(breaker.canCall(500)).toBe(true);
    breaker.record('failure', 700);
    expect(breaker.state(700)).toMatchObject({ status: 'open', openedAt: 700, retryAt: 1_200 });
    expect(breaker.canCall(1_199)).toBe(false);
    expect(breaker.canCall(1_200)).toBe(true);
  });

  it('ignores outcomes recorded while open (calls admitted before it opened)', () => {
    const breaker = createCircuitBreaker({ failureThreshold: 1, openMs: 500 });
    breaker.record('failure', 0);
    breaker.record('success', 10);
    breaker.record('failure', 20);
    expect(breaker.state(20)).toMatchObject({ status: 'open', openedAt: 0, retryAt: 500 });
  });

  it('rejects invalid options and times', () => {
    expect(() => createCircuitBreaker({ failureThreshold: 0, openMs: 1 })).toThrow(RangeError);
    expect(() => createCircuitBreaker({ failureThreshold: 1, openMs: -1 })).toThrow(RangeError);
    expect(() =>
      createCircuitBreaker({ failureThreshold: 1, openMs: 1, halfOpenProbes: 0 }),
    ).toThrow(RangeError);
    expect(() => createCircuitBreaker({ failureThreshold: 1, openMs: 1 }).canCall(NaN)).toThrow(
      RangeError,
    );
  });
});

/** A random sequence of asks and outcomes, at non-decreasing times. */
const steps = fc.array(
  fc.record({
    gap: fc.nat({ max: 400 }),
    action: fc.constantFrom<'ask' | CallOutcome>('ask', 'success', 'failure'),
  }),
  { maxLength: 200 },
);
const options = fc.record({
  failureThreshold: fc.integer({ min: 1, max: 5 }),
  openMs: fc.integer({ min: 0, max: 1_000 }),
  halfOpenProbes: fc.integer({ min: 1, max: 3 }),
});

describe('circuit breaker properties', () => {
  it('never allows a call while open before retryAt, nor more probes than halfOpenProbes', () => {
    fc.assert(
      fc.property(options, steps, (settings, sequence) => {
        const breaker = createCircuitBreaker(settings);
        let now = 0;
        let probesSinceOpen = 0;
        for (const { gap, action } of sequence) {
          now += gap;
          const before = breaker.state(now);
          if (before.status !== 'half_open') probesSinceOpen = 0;
          if (action === 'ask') {
            const allowed = breaker.canCall(now);
            if (before.status === 'open') {
              expect(now).toBeLessThan(before.retryAt!);
              expect(allowed).toBe(false);
            }
            if (before.status === 'half_open' && allowed) probesSinceOpen += 1;
            expect(probesSinceOpen).toBeLessThanOrEqual(settings.halfOpenProbes);
          } else {
            breaker.record(action, now);
            // A failed probe opens the breaker again: a new open period with its own
            // probes (with openMs 0 it reads half-open again at once).
            if (before.status === 'half_open' && action === 'failure') probesSinceOpen = 0;
          }
          const after = breaker.state(now);
          if (after.status !== 'half_open') probesSinceOpen = 0;
          expect(after.posture).toBe(after.status === 'closed' ? 'ok' : 'degraded');
          if (after.status === 'closed') {
            expect(after.consecutiveFailures).toBeLessThan(settings.failureThreshold);
          } else {
            expect(after.retryAt).toBe(after.openedAt! + settings.openMs);
          }
        }
      }),
    );
  });

  it('closes after a successful probe, from any history', () => {
    fc.assert(
      fc.property(options, steps, fc.nat({ max: 5_000 }), (settings, sequence, wait) => {
        const breaker = createCircuitBreaker(settings);
        let now = 0;
        for (const { gap, action } of sequence) {
          now += gap;
          if (action === 'ask') breaker.canCall(now);
          else breaker.record(action, now);
        }
        // Force it open, then wait out openMs: the next call is a probe.
        for (let i = 0; i < settings.failureThreshold; i++) breaker.record('failure', now);
        const { status, retryAt } = breaker.state(now);
        // Open (half-open already when openMs is 0), with retryAt at most openMs away.
        expect(status).not.toBe('closed');
        expect(retryAt).toBeLessThanOrEqual(now + settings.openMs);
        now = Math.max(now, retryAt!) + wait;
        expect(breaker.canCall(now)).toBe(true);
        breaker.record('success', now);
        expect(breaker.state(now)).toEqual({
          status: 'closed',
          consecutiveFailures: 0,
          posture: 'ok',
        });
      }),
    );
  });
});
