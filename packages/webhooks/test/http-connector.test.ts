import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  generateWebhookSecret,
  PermanentConnectorError,
  TransientConnectorError,
  type HandoffAnswer,
  type HandoffContext,
  type HandoffRequest,
} from '@programrun/engine';
import { canonicalize } from '@programrun/evidence';
import { createHttpConnector } from '../src/connectors/http-connector.js';
import type { Resolver } from '../src/guarded-lookup.js';
import { answer, startPartner, type TestPartner } from './partner-server.js';

const secret = generateWebhookSecret();

const request: HandoffRequest = {
  run_id: 'run_01J9Z8Q4M2',
  step: 'payout',
  party: 'acme_bank',
  action: 'pay_out',
  data: { amount: '125.00', currency: 'EUR', beneficiary: { iban: 'DE89370400440532013000' } },
  idempotency_key: 'pik_01J9Z8Q4M2payout',
  environment: 'test',
  account: 'acct_demo',
};

function contextOf(attempt = 1, overrides: Partial<HandoffContext> = {}): HandoffContext {
  return {
    signal: new AbortController().signal,
    attempt,
    deadline: new Date(Date.now() + 60_000),
    idempotencyKey: request.idempotency_key,
    ...overrides,
  };
}

/** The error a promise rejects with (fails the test when it resolves). */
async function failure(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected the attempt to fail');
}

async function transient(promise: Promise<unknown>): Promise<TransientConnectorError> {
  const error = await failure(promise);
  expect(error).toBeInstanceOf(TransientConnectorError);
  return error as TransientConnectorError;
}

async function permanent(promise: Promise<unknown>): Promise<PermanentConnectorError> {
  const error = await failure(promise);
  expect(error).toBeInstanceOf(PermanentConnectorError);
  return error as PermanentConnectorError;
}

let partner: TestPartner;

beforeAll(async () => {
  partner = await startPartner(secret);
});

afterAll(async () => {
  await partner.close();
});

beforeEach(() => {
  partner.received.length = 0;
  partner.rejected.length = 0;
});

function connector(options: { timeoutMs?: number } = {}) {
  return createHttpConnector({ url: partner.url, secret, allowLoopback: true, ...options });
}

describe('createHttpConnector: the request the partner receives', () => {
  it('POSTs the canonical handoff JSON, signed, with the pik_ key as webhook-id and Idempotency-Key', async () => {
    const confirmed: HandoffAnswer = {
      outcome: 'confirmed',
      reference: 'PAY-20931',
      data: { fee: '0.25' },
    };
    partner.route = (_received, response) => answer(response, 200, confirmed);

    await expect(connector()(request, contextOf())).resolves.toEqual(confirmed);

    expect(partner.rejected).toEqual([]);
    expect(partner.received).toHaveLength(1);
    const [received] = partner.received;
    expect(received!.body).toBe(canonicalize(request));
    expect(received!.payload).toEqual(request);
    expect(received!.headers['webhook-id']).toBe(request.idempotency_key);
    expect(received!.headers['idempotency-key']).toBe(request.idempotency_key);
    expect(received!.headers['programrun-attempt']).toBe('1');
    expect(received!.headers['content-type']).toBe('application/json');
    const timestamp = Number(received!.headers['webhook-timestamp']);
    expect(Math.abs(timestamp - Date.now() / 1000)).toBeLessThan(5);
  });

  it('is refused by a partner holding another secret', async () => {
    const other = createHttpConnector({
      url: partner.url,
      secret: generateWebhookSecret(),
      allowLoopback: true,
    });
    const error = await permanent(other(request, contextOf()));
    expect(error.reason).toBe('http_4xx');
    expect(error.status).toBe(401);
    expect(partner.rejected).toHaveLength(1);
    expect(partner.received).toHaveLength(0);
  });
});

describe('createHttpConnector: answers', () => {
  it('202 is accepted (the partner answers later)', async () => {
    partner.route = (_received, response) => answer(response, 202, { status: 'processing' });
    await expect(connector()(request, contextOf())).resolves.toBe('accepted');
  });

  it('200 with a rejected or failed outcome is that answer', async () => {
    partner.route = (_received, response) =>
      answer(response, 200, { outcome: 'rejected', reference: 'R-1' });
    await expect(connector()(request, contextOf())).resolves.toEqual({
      outcome: 'rejected',
      reference: 'R-1',
    });
  });

  it.each([
    ['not JSON', 'confirmed'],
    ['an array', '[]'],
    ['an unknown outcome', '{"outcome":"done","reference":"R-1"}'],
    ['an empty reference', '{"outcome":"confirmed","reference":""}'],
    ['an extra member', '{"outcome":"confirmed","reference":"R-1","amount":"1.00"}'],
    ['a duplicate key', '{"outcome":"confirmed","outcome":"failed","reference":"R-1"}'],
    ['data that is not an object', '{"outcome":"confirmed","reference":"R-1","data":[1]}'],
    ['a long reference', JSON.stringify({ outcome: 'confirmed', reference: 'x'.repeat(257) })],
    [
      'too large a body',
      JSON.stringify({ outcome: 'confirmed', reference: 'R', data: { pad: 'x'.repeat(70_000) } }),
    ],
  ])('200 with %s is a transient invalid_answer', async (_name, body) => {
    partner.route = (_received, response) => answer(response, 200, body);
    const error = await transient(connector()(request, contextOf()));
    expect(error.code).toBe('connector_transient');
    expect(error.errorClass).toBe('invalid_answer');
    expect(error.status).toBe(200);
  });

  it('a lost answer, then a 409 replaying the stored answer: same pik_ on both attempts', async () => {
    const stored = new Map<string, HandoffAnswer>();
    partner.route = (received, response) => {
      const key = received.headers['idempotency-key'] as string;
      const previous = stored.get(key);
      if (previous !== undefined) {
        answer(response, 409, previous);
        return;
      }
      stored.set(key, { outcome: 'confirmed', reference: 'PAY-77' });
      // The partner acted, but its answer never reaches the connector.
      response.socket?.destroy();
    };
    const send = connector();

    const lost = await transient(send(request, contextOf(1)));
    expect(lost.errorClass).toBe('connection');
    await expect(send(request, contextOf(2))).resolves.toEqual({
      outcome: 'confirmed',
      reference: 'PAY-77',
    });

    expect(partner.received).toHaveLength(2);
    for (const received of partner.received) {
      expect(received.headers['webhook-id']).toBe(request.idempotency_key);
      expect(received.headers['idempotency-key']).toBe(request.idempotency_key);
    }
    expect(partner.received.map((received) => received.headers['programrun-attempt'])).toEqual([
      '1',
      '2',
    ]);
    expect(partner.received[1]!.body).toBe(partner.received[0]!.body);
  });

  it('409 without a stored answer is transient (in_progress)', async () => {
    partner.route = (_received, response) => answer(response, 409, { error: 'in progress' });
    const error = await transient(connector()(request, contextOf()));
    expect(error.errorClass).toBe('in_progress');
    expect(error.status).toBe(409);
  });

  it('400 is a PermanentConnectorError carrying the status and the problem', async () => {
    partner.route = (_received, response) =>
      answer(response, 400, { type: 'about:blank', title: 'unknown beneficiary' });
    const error = await permanent(connector()(request, contextOf()));
    expect(error.code).toBe('connector_permanent');
    expect(error.reason).toBe('http_4xx');
    expect(error.status).toBe(400);
    expect(error.problem).toContain('unknown beneficiary');
  });

  it('429 is transient (rate_limited) and 408 is transient (timeout)', async () => {
    partner.route = (_received, response) => answer(response, 429);
    expect((await transient(connector()(request, contextOf()))).errorClass).toBe('rate_limited');
    partner.route = (_received, response) => answer(response, 408);
    expect((await transient(connector()(request, contextOf()))).errorClass).toBe('timeout');
  });

  it('500 is transient (http_5xx)', async () => {
    partner.route = (_received, response) => answer(response, 500, 'oops');
    const error = await transient(connector()(request, contextOf()));
    expect(error.errorClass).toBe('http_5xx');
    expect(error.status).toBe(500);
  });

  it("passes the partner's Retry-After on 429 and 503 as retryAfterMs", async () => {
    partner.route = (_received, response) => response.writeHead(429, { 'retry-after': '7' }).end();
    const limited = await transient(connector()(request, contextOf()));
    expect(limited.errorClass).toBe('rate_limited');
    expect(limited.retryAfterMs).toBe(7_000);

    const at = new Date(Math.ceil(Date.now() / 1000) * 1000 + 120_000);
    partner.route = (_received, response) =>
      response.writeHead(503, { 'retry-after': at.toUTCString() }).end();
    const unavailable = await transient(connector()(request, contextOf()));
    expect(unavailable.errorClass).toBe('http_5xx');
    expect(unavailable.status).toBe(503);
    expect(unavailable.retryAfterMs).toBeGreaterThan(110_000);
    expect(unavailable.retryAfterMs).toBeLessThanOrEqual(121_000);

    partner.route = (_received, response) =>
      response.writeHead(503, { 'retry-after': 'whenever' }).end();
    expect((await transient(connector()(request, contextOf()))).retryAfterMs).toBeNull();
    partner.route = (_received, response) =>
      response.writeHead(429, { 'retry-after': '7200' }).end();
    expect((await transient(connector()(request, contextOf()))).retryAfterMs).toBe(3_600_000);
    partner.route = (_received, response) => answer(response, 500, 'oops');
    expect((await transient(connector()(request, contextOf()))).retryAfterMs).toBeNull();
  });

  it('a redirect is permanent: connectors never follow redirects', async () => {
    partner.route = (_received, response) =>
      response.writeHead(307, { location: 'http://127.0.0.1:1/' }).end();
    const error = await permanent(connector()(request, contextOf()));
    expect(error.reason).toBe('redirect');
    expect(error.status).toBe(307);
  });
});

describe('createHttpConnector: timeouts and connections', () => {
  it('a slow partner times out when the caller aborts', async () => {
    partner.route = () => undefined; // never answers
    const controller = new AbortController();
    const started = Date.now();
    setTimeout(() => controller.abort(), 100);
    const error = await transient(
      connector()(request, contextOf(1, { signal: controller.signal })),
    );
    expect(error.errorClass).toBe('timeout');
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it('a slow partner times out after timeoutMs', async () => {
    partner.route = () => undefined;
    const error = await transient(connector({ timeoutMs: 100 })(request, contextOf()));
    expect(error.errorClass).toBe('timeout');
  });

  it('an already aborted signal sends nothing', async () => {
    const error = await transient(
      connector()(request, contextOf(1, { signal: AbortSignal.abort() })),
    );
    expect(error.errorClass).toBe('timeout');
    expect(partner.received).toHaveLength(0);
  });

  it('an attempt never outlives the deadline, and a passed deadline sends nothing', async () => {
    partner.route = () => undefined;
    const soon = contextOf(1, { deadline: new Date(Date.now() + 100) });
    expect((await transient(connector()(request, soon))).errorClass).toBe('timeout');
    const received = partner.received.length;
    const passed = contextOf(2, { deadline: new Date(Date.now() - 1) });
    expect((await transient(connector()(request, passed))).errorClass).toBe('timeout');
    expect(partner.received).toHaveLength(received);
  });

  it('a dropped connection is transient (connection)', async () => {
    partner.route = (_received, response) => response.socket?.destroy();
    const error = await transient(connector()(request, contextOf()));
    expect(error.errorClass).toBe('connection');
    expect(error.status).toBeNull();
  });

  it('retries of 500, a drop, then 200 all carry the same pik_ key', async () => {
    const plan: ((response: Parameters<TestPartner['route']>[1]) => void)[] = [
      (response) => answer(response, 500),
      (response) => response.socket?.destroy(),
      (response) => answer(response, 200, { outcome: 'confirmed', reference: 'PAY-3' }),
    ];
    partner.route = (_received, response) => plan.shift()!(response);
    const send = connector();
    let result: HandoffAnswer | 'accepted' | undefined;
    for (let attempt = 1; result === undefined; attempt += 1) {
      try {
        result = await send(request, contextOf(attempt));
      } catch (error) {
        expect(error).toBeInstanceOf(TransientConnectorError);
      }
    }
    expect(result).toEqual({ outcome: 'confirmed', reference: 'PAY-3' });
    expect(partner.received.map((received) => received.headers['webhook-id'])).toEqual(
      Array(3).fill(request.idempotency_key),
    );
    expect(new Set(partner.received.map((received) => received.body)).size).toBe(1);
  });

  it('a connection refused is transient (connection)', async () => {
    const closed = await startPartner(secret);
    const url = closed.url;
    await closed.close();
    const send = createHttpConnector({ url, secret, allowLoopback: true });
    expect((await transient(send(request, contextOf()))).errorClass).toBe('connection');
  });

  it('a host name that does not resolve is transient (connection)', async () => {
    const nowhere: Resolver = () =>
      Promise.reject(Object.assign(new Error('getaddrinfo ENOTFOUND'), { code: 'ENOTFOUND' }));
    const send = createHttpConnector({
      url: 'https://partner.invalid/handoffs',
      secret,
      resolve: nowhere,
    });
    expect((await transient(send(request, contextOf()))).errorClass).toBe('connection');
  });
});

describe('createHttpConnector: the SSRF guard', () => {
  it('refuses a loopback partner without allowLoopback, sending nothing', async () => {
    const send = createHttpConnector({ url: partner.url, secret });
    const error = await permanent(send(request, contextOf()));
    expect(error.reason).toBe('forbidden_address');
    expect(partner.received).toHaveLength(0);
  });

  it('refuses a host name resolving to a private address', async () => {
    const internal: Resolver = () => Promise.resolve([{ address: '10.0.0.5', family: 4 }]);
    const send = createHttpConnector({
      url: 'https://partner.example.com/handoffs',
      secret,
      resolve: internal,
    });
    expect((await permanent(send(request, contextOf()))).reason).toBe('forbidden_address');
  });

  it('refuses plain http to a public host in live mode', async () => {
    const send = createHttpConnector({ url: 'http://partner.example.com/handoffs', secret });
    const live = { ...request, environment: 'live' as const };
    expect((await permanent(send(live, contextOf()))).reason).toBe('https_required');
  });
});

describe('createHttpConnector: the handoff itself', () => {
  it('refuses a context key that is not the request pik_ key', async () => {
    const error = await permanent(
      connector()(request, contextOf(1, { idempotencyKey: 'pik_other' })),
    );
    expect(error.reason).toBe('invalid_request');
    expect(partner.received).toHaveLength(0);
  });

  it('refuses a key without the pik_ prefix', async () => {
    const unprefixed = { ...request, idempotency_key: 'key_1' };
    const error = await permanent(
      connector()(unprefixed, contextOf(1, { idempotencyKey: 'key_1' })),
    );
    expect(error.reason).toBe('invalid_request');
  });

  it('refuses a secret that is not a whsec_ secret when created', () => {
    expect(() => createHttpConnector({ url: partner.url, secret: 'not-a-secret' })).toThrow(
      /whsec_/,
    );
  });
});

describe('createHttpConnector: connections', () => {
  it('reuses one kept-alive connection for calls in sequence', async () => {
    const server = createServer((incoming, response) => {
      incoming.resume();
      incoming.on('end', () => {
        response.setHeader('content-type', 'application/json');
        response.end(JSON.stringify({ outcome: 'confirmed', reference: 'ref_kept_alive' }));
      });
    });
    let connections = 0;
    server.on('connection', () => (connections += 1));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const call = createHttpConnector({
        url: `http://127.0.0.1:${port}/handoffs`,
        secret,
        allowLoopback: true,
      });
      for (let attempt = 1; attempt <= 3; attempt += 1) {
        expect(await call(request, contextOf(attempt))).toMatchObject({ outcome: 'confirmed' });
      }
      expect(connections).toBe(1);
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
