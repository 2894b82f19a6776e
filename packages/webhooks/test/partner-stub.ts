// A programmable handoff partner on 127.0.0.1 for the connector suites (chaos, SIGKILL,
// concurrency, fairness): a real node:http server that verifies every request's Standard
// Webhooks signature with the official `standardwebhooks` package, records every call
// (its pik_ key, webhook-id, call number, timing) and counts calls in flight, and answers
// each call the way `behaviour` says: 200 now or slowly, 5xx, 202 then a callback, 200 and
// a callback (answered twice), or a dropped connection.
import { once } from 'node:events';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Socket } from 'node:net';
import { performance } from 'node:perf_hooks';
import { Webhook } from 'standardwebhooks';
import type { HandoffAnswer, HandoffRequest } from '@programrun/engine';

/**
 * How the partner answers one call:
 * - `answer`: 200 with `answerOf(request)`, after `delayMs` (a slow partner);
 * - `fail`: `status` (default 503) after `delayMs`: a transient failure;
 * - `accept`: 202 at once, then the callback after `callbackAfterMs`;
 * - `twice`: 200 with the answer after `delayMs` **and** the callback with the same answer,
 *   started `callbackAfterMs` after the request arrived (before the 200 when shorter);
 * - `drop`: the connection is destroyed after `delayMs` without an answer.
 */
export type PartnerBehaviour =
  | { readonly kind: 'answer'; readonly delayMs?: number }
  | { readonly kind: 'fail'; readonly status?: number; readonly delayMs?: number }
  | { readonly kind: 'accept'; readonly callbackAfterMs?: number }
  | { readonly kind: 'twice'; readonly delayMs?: number; readonly callbackAfterMs?: number }
  | { readonly kind: 'drop'; readonly delayMs?: number };

/** One request the partner received. */
export interface PartnerCall {
  /** Arrival order over the stub's life, from 0. */
  readonly index: number;
  /** The `Idempotency-Key` header. */
  readonly idempotencyKey: string;
  /** The `webhook-id` header. */
  readonly webhookId: string;
  /** The `programrun-attempt` header: the engine's call number for this job. */
  readonly callNumber: number;
  /** 1 for the first request with this key the stub saw, then 2, 3, … */
  readonly callOfKey: number;
  /** The signature verified with `standardwebhooks` (unverified calls are answered 401). */
  readonly verified: boolean;
  /** The parsed body (a `HandoffRequest` when the sender is a handoff connector). */
  readonly request: HandoffRequest;
  /** What the stub did with it (`rejected` when the signature did not verify). */
  readonly behaviour: PartnerBehaviour['kind'] | 'rejected';
  /** `performance.now()` when the request arrived and when it ended (answered, dropped or aborted). */
  readonly startedAt: number;
  finishedAt: number | undefined;
}

/** One callback the stub made (`accept` and `twice`). */
export interface PartnerCallback {
  readonly idempotencyKey: string;
  readonly request: HandoffRequest;
  readonly answer: HandoffAnswer;
  /** `undefined` while it runs; then `'ok'` or the error's message. */
  result: string | undefined;
}

/** Answers a handoff out of band, the way a partner calls back (engine.signal or HTTP). */
export type PartnerCallbackSender = (
  request: HandoffRequest,
  answer: HandoffAnswer,
) => Promise<void>;

/** Options of {@link startPartnerStub}. */
export interface PartnerStubOptions {
  /** The `whsec_…` secret the connector signs with. */
  readonly secret: string;
  /** How to call the engine back (`accept`, `twice`); required when those behaviours occur. */
  readonly callback?: PartnerCallbackSender;
  /** The behaviour of each call. @default () => ({ kind: 'answer' }) */
  readonly behaviour?: (call: PartnerCall) => PartnerBehaviour;
  /**
   * The answer to a request (same for every call of one key, so replays agree).
   * @default confirmed, reference `ref_<pik>`, data `{ risk: 'low' }`
   */
  readonly answerOf?: (request: HandoffRequest) => HandoffAnswer;
}

/** A running partner stub. */
export interface PartnerStub {
  /** `http://127.0.0.1:<port>/handoffs` */
  readonly url: string;
  /** Every request, in arrival order (retries and unverified ones included). */
  readonly calls: readonly PartnerCall[];
  /** Why requests failed verification (answered 401). */
  readonly rejected: readonly string[];
  /** Callbacks made so far. */
  readonly callbacks: readonly PartnerCallback[];
  /** Calls open right now, and the most ever open at once (since `resetMaxInFlight`). */
  readonly inFlight: number;
  readonly maxInFlight: number;
  /** The most calls of one party (the request's `party`) open at once, since `resetMaxInFlight`. */
  maxInFlightOf(party: string): number;
  behaviour: (call: PartnerCall) => PartnerBehaviour;
  /** Calls of one key, in arrival order. */
  callsOf(idempotencyKey: string): PartnerCall[];
  resetMaxInFlight(): void;
  /** Resolves once no call is open and every callback finished. */
  idle(): Promise<void>;
  close(): Promise<void>;
}

/**
 * The default answer: confirmed, with a reference derived from the key and the low risk
 * the `wallet-delivery@v1` screening gate expects.
 *
 * @example
 * ```ts
 * defaultPartnerAnswer(request).reference; // 'ref_pik_…'
 * ```
 */
export function defaultPartnerAnswer(request: HandoffRequest): HandoffAnswer {
  return {
    outcome: 'confirmed',
    reference: `ref_${request.idempotency_key}`,
    data: { risk: 'low' },
  };
}

const sleep = (ms: number) =>
  ms > 0 ? new Promise<void>((resolve) => setTimeout(resolve, ms)) : Promise.resolve();

const header = (request: IncomingMessage, name: string): string => {
  const value = request.headers[name];
  return Array.isArray(value) ? value.join(',') : (value ?? '');
};

/**
 * Starts a partner stub on 127.0.0.1 (a random port).
 *
 * @example
 * ```ts
 * const partner = await startPartnerStub({
 *   secret,
 *   callback: (request, answer) => engine.signal(scopeOf(request), request.run_id, { kind: 'handoff', step: request.step, ...answer, idempotency_key: request.idempotency_key }).then(() => undefined),
 *   behaviour: (call) => (call.callOfKey === 1 ? { kind: 'fail' } : { kind: 'answer', delayMs: 50 }),
 * });
 * const connector = createHttpConnector({ url: partner.url, secret, allowLoopback: true });
 * ```
 */
export async function startPartnerStub(options: PartnerStubOptions): Promise<PartnerStub> {
  const verifier = new Webhook(options.secret);
  const answerOf = options.answerOf ?? defaultPartnerAnswer;
  const calls: PartnerCall[] = [];
  const rejected: string[] = [];
  const callbacks: PartnerCallback[] = [];
  const byKey = new Map<string, PartnerCall[]>();
  const pending = new Set<Promise<void>>();
  const sockets = new Set<Socket>();
  let inFlight = 0;
  let maxInFlight = 0;
  const partyInFlight = new Map<string, number>();
  const partyMax = new Map<string, number>();
  let idleWaiters: (() => void)[] = [];

  const checkIdle = () => {
    if (inFlight > 0 || pending.size > 0) return;
    const waiters = idleWaiters;
    idleWaiters = [];
    for (const resolve of waiters) resolve();
  };

  const track = (work: Promise<void>) => {
    const tracked = work.finally(() => {
      pending.delete(tracked);
      checkIdle();
    });
    pending.add(tracked);
  };

  const callBack = (request: HandoffRequest, answer: HandoffAnswer, afterMs: number) => {
    const record: PartnerCallback = {
      idempotencyKey: request.idempotency_key,
      request,
      answer,
      result: undefined,
    };
    callbacks.push(record);
    track(
      (async () => {
        await sleep(afterMs);
        if (!options.callback) throw new Error('the partner stub has no callback');
        await options.callback(request, answer);
        record.result = 'ok';
      })().catch((error: unknown) => {
        record.result = error instanceof Error ? error.message : String(error);
      }),
    );
  };

  const reply = (response: ServerResponse, status: number, body?: unknown) => {
    if (response.destroyed || response.writableEnded) return;
    if (body === undefined) {
      response.writeHead(status).end();
      return;
    }
    response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  };

  const serve = async (call: PartnerCall, response: ServerResponse) => {
    const behaviour = state.behaviour(call);
    (call as { behaviour: PartnerCall['behaviour'] }).behaviour = behaviour.kind;
    const request = call.request;
    switch (behaviour.kind) {
      case 'answer':
        await sleep(behaviour.delayMs ?? 0);
        reply(response, 200, answerOf(request));
        return;
      case 'fail':
        await sleep(behaviour.delayMs ?? 0);
        reply(response, behaviour.status ?? 503, { error: 'try again later' });
        return;
      case 'accept':
        reply(response, 202);
        callBack(request, answerOf(request), behaviour.callbackAfterMs ?? 0);
        return;
      case 'twice':
        callBack(request, answerOf(request), behaviour.callbackAfterMs ?? 0);
        await sleep(behaviour.delayMs ?? 0);
        reply(response, 200, answerOf(request));
        return;
      case 'drop':
        await sleep(behaviour.delayMs ?? 0);
        response.socket?.destroy();
        return;
    }
  };

  const server = createServer((request, response) => {
    inFlight += 1;
    maxInFlight = Math.max(maxInFlight, inFlight);
    const startedAt = performance.now();
    let call: PartnerCall | undefined;
    let party: string | undefined;
    response.once('close', () => {
      inFlight -= 1;
      if (party !== undefined) partyInFlight.set(party, (partyInFlight.get(party) ?? 1) - 1);
      if (call) call.finishedAt = performance.now();
      checkIdle();
    });
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      let verified = true;
      try {
        verifier.verify(body, {
          'webhook-id': header(request, 'webhook-id'),
          'webhook-timestamp': header(request, 'webhook-timestamp'),
          'webhook-signature': header(request, 'webhook-signature'),
        });
      } catch (error) {
        verified = false;
        rejected.push(error instanceof Error ? error.message : String(error));
      }
      let parsed: HandoffRequest;
      try {
        parsed = JSON.parse(body) as HandoffRequest;
      } catch {
        parsed = {} as HandoffRequest;
      }
      if (!response.destroyed) {
        party = String(parsed.party);
        const open = (partyInFlight.get(party) ?? 0) + 1;
        partyInFlight.set(party, open);
        partyMax.set(party, Math.max(partyMax.get(party) ?? 0, open));
      }
      const idempotencyKey = header(request, 'idempotency-key');
      const seen = byKey.get(idempotencyKey) ?? [];
      call = {
        index: calls.length,
        idempotencyKey,
        webhookId: header(request, 'webhook-id'),
        callNumber: Number(header(request, 'programrun-attempt')),
        callOfKey: seen.length + 1,
        verified,
        request: parsed,
        behaviour: 'rejected',
        startedAt,
        finishedAt: undefined,
      };
      seen.push(call);
      byKey.set(idempotencyKey, seen);
      calls.push(call);
      if (!verified) {
        reply(response, 401, { error: 'invalid signature' });
        return;
      }
      const served = call;
      track(
        serve(served, response).catch(() => {
          response.socket?.destroy();
        }),
      );
    });
  });
  server.keepAliveTimeout = 5_000;
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;

  const state: PartnerStub = {
    url: `http://127.0.0.1:${port}/handoffs`,
    calls,
    rejected,
    callbacks,
    get inFlight() {
      return inFlight;
    },
    get maxInFlight() {
      return maxInFlight;
    },
    behaviour: options.behaviour ?? (() => ({ kind: 'answer' })),
    maxInFlightOf: (name) => partyMax.get(name) ?? 0,
    callsOf: (idempotencyKey) => [...(byKey.get(idempotencyKey) ?? [])],
    resetMaxInFlight() {
      maxInFlight = inFlight;
      partyMax.clear();
      for (const [name, open] of partyInFlight) partyMax.set(name, open);
    },
    idle() {
      if (inFlight === 0 && pending.size === 0) return Promise.resolve();
      return new Promise((resolve) => idleWaiters.push(resolve));
    },
    async close() {
      for (const socket of sockets) socket.destroy();
      server.close();
      await once(server, 'close');
      await Promise.allSettled([...pending]);
    },
  };
  return state;
}
