// The partner stub the connector suites rely on, checked against the real HTTP connector:
// each behaviour produces the result the connector contract names, every call is verified
// and recorded, and calls in flight are counted.
import { generateWebhookSecret, TransientConnectorError } from '@programrun/engine';
import type { HandoffAnswer, HandoffContext, HandoffRequest } from '@programrun/engine';
import { afterEach, describe, expect, it } from 'vitest';
import { createHttpConnector } from '../src/connectors/http-connector.js';
import { startPartnerStub, type PartnerStub } from './partner-stub.js';

const secret = generateWebhookSecret();

const request: HandoffRequest = {
  run_id: 'run_01J9Z8Q4M2',
  step: 'screen_destination',
  party: 'chain_analytics',
  action: 'wallet.screen',
  data: { address: '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed', network: 'base' },
  idempotency_key: `pik_${'a'.repeat(32)}`,
  environment: 'live',
  account: 'acct_demo',
};

const context = (attempt: number): HandoffContext => ({
  signal: new AbortController().signal,
  attempt,
  deadline: new Date(Date.now() + 60_000),
  idempotencyKey: request.idempotency_key,
});

const stubs: PartnerStub[] = [];
afterEach(async () => {
  for (const stub of stubs.splice(0)) await stub.close();
});

async function stub(options: Omit<Parameters<typeof startPartnerStub>[0], 'secret'>) {
  const started = await startPartnerStub({ secret, ...options });
  stubs.push(started);
  return started;
}

const connectorOf = (partner: PartnerStub, timeoutMs = 5_000) =>
  createHttpConnector({ url: partner.url, secret, allowLoopback: true, timeoutMs });

async function transientClass(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(TransientConnectorError);
    return (error as TransientConnectorError).errorClass;
  }
  throw new Error('expected a transient failure');
}

describe('the partner stub', () => {
  it('answers, fails, accepts and calls back, answers twice and drops, as programmed', async () => {
    const called: { request: HandoffRequest; answer: HandoffAnswer }[] = [];
    const kinds = ['fail', 'drop', 'accept', 'twice', 'answer'] as const;
    const partner = await stub({
      callback: (handoff, answer) => {
        called.push({ request: handoff, answer });
        return Promise.resolve();
      },
      behaviour: (call) => ({ kind: kinds[call.callOfKey - 1]!, delayMs: 5 }),
    });
    const connector = connectorOf(partner);
    expect(await transientClass(connector(request, context(1)))).toBe('http_5xx');
    expect(await transientClass(connector(request, context(2)))).toBe('connection');
    expect(await connector(request, context(3))).toBe('accepted');
    const answer = { outcome: 'confirmed', reference: `ref_${request.idempotency_key}` };
    expect(await connector(request, context(4))).toMatchObject(answer);
    expect(await connector(request, context(5))).toMatchObject(answer);
    await partner.idle();

    expect(partner.rejected).toEqual([]);
    expect(partner.calls.map((call) => call.behaviour)).toEqual(kinds);
    for (const call of partner.calls) {
      expect(call).toMatchObject({
        verified: true,
        idempotencyKey: request.idempotency_key,
        webhookId: request.idempotency_key,
      });
      expect(call.request).toEqual(request);
      expect(call.finishedAt).toBeGreaterThanOrEqual(call.startedAt);
    }
    expect(partner.calls.map((call) => call.callNumber)).toEqual([1, 2, 3, 4, 5]);
    expect(partner.callsOf(request.idempotency_key).map((call) => call.callOfKey)).toEqual([
      1, 2, 3, 4, 5,
    ]);
    // accept and twice each called back once, with the answer the 200 carries.
    expect(called).toHaveLength(2);
    expect(called.every((callback) => callback.answer.reference === answer.reference)).toBe(true);
    expect(partner.callbacks.map((callback) => callback.result)).toEqual(['ok', 'ok']);
  });

  it('answers slowly past the connector timeout, and counts the calls in flight', async () => {
    const partner = await stub({ behaviour: () => ({ kind: 'answer', delayMs: 150 }) });
    expect(await transientClass(connectorOf(partner, 50)(request, context(1)))).toBe('timeout');
    await partner.idle();
    const connector = connectorOf(partner);
    partner.resetMaxInFlight();
    await Promise.all([1, 2, 3, 4].map((attempt) => connector(request, context(attempt))));
    expect(partner.maxInFlight).toBe(4);
    expect(partner.maxInFlightOf('chain_analytics')).toBe(4);
    expect(partner.maxInFlightOf('custodian')).toBe(0);
    expect(partner.inFlight).toBe(0);
  });

  it('refuses a request signed with another secret', async () => {
    const partner = await stub({});
    const connector = createHttpConnector({
      url: partner.url,
      secret: generateWebhookSecret(),
      allowLoopback: true,
    });
    await expect(connector(request, context(1))).rejects.toMatchObject({
      code: 'connector_permanent',
      status: 401,
    });
    expect(partner.rejected).toHaveLength(1);
    expect(partner.calls[0]).toMatchObject({ verified: false, behaviour: 'rejected' });
  });
});
