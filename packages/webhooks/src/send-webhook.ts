import * as http from 'node:http';
import * as https from 'node:https';
import { performance } from 'node:perf_hooks';
import { context as contextApi, trace } from '@opentelemetry/api';
import type { RunEnvironment } from '@programrun/dsl';
import {
  checkEndpointUrl,
  FORBIDDEN_ADDRESS,
  formatTraceparent,
  hostAddress,
  isPermittedAddress,
  type EndpointUrlErrorCode,
} from '@programrun/engine';
import { createGuardedLookup, type Resolver } from './guarded-lookup.js';

/**
 * How much of a response body an attempt keeps (for the attempt log): 1 KiB.
 *
 * @example
 * ```ts
 * (result.responseBody ?? '').length <= RESPONSE_BODY_LIMIT; // true for ASCII answers
 * ```
 */
export const RESPONSE_BODY_LIMIT = 1024;

/**
 * The `user-agent` of every delivery.
 *
 * @example
 * ```ts
 * request.headers['user-agent'] === WEBHOOK_USER_AGENT; // on the receiving side
 * ```
 */
export const WEBHOOK_USER_AGENT = 'programrun-webhooks/1';

/** Stable codes of a failed delivery attempt. */
export type DeliveryErrorCode =
  | EndpointUrlErrorCode
  | 'timeout'
  | 'connection_failed'
  | 'tls_error'
  | 'redirect_not_followed'
  | 'invalid_request'
  | 'aborted';

/** Why an attempt failed. */
export interface DeliveryError {
  readonly code: DeliveryErrorCode;
  /** One sentence for the attempt log. */
  readonly message: string;
}

/**
 * One delivery attempt. It succeeded when `error` is null and `status` is 2xx (see
 * `isSuccessfulAttempt`); a 4xx or 5xx answer has its status and no error.
 */
export interface DeliveryAttemptResult {
  /** The response status, or null when no response arrived. */
  readonly status: number | null;
  /** Milliseconds from the start of the attempt to the response headers (or the failure). */
  readonly latencyMs: number;
  readonly error: DeliveryError | null;
  /** The first 1 KiB (or `responseBodyLimit` bytes) of the response body (UTF-8), when there was a response. */
  readonly responseBody?: string;
  /**
   * The raw `retry-after` response header (its first 64 characters), or null when the
   * answer had none; absent when no response arrived. Webhook deliveries ignore it.
   */
  readonly retryAfter?: string | null;
}

/** The keep-alive connection pools deliveries share. */
export interface WebhookAgents {
  readonly http: http.Agent;
  readonly https: https.Agent;
  /** Closes every pooled connection. */
  destroy(): void;
}

/** One webhook to send. */
export interface WebhookRequest {
  readonly url: string;
  /**
   * Added to the request; `content-type`, `user-agent`, `content-length`, `host`, `connection`
   * and `transfer-encoding` are set by the sender. `traceparent` (and `tracestate`) default to
   * the active span's, when a tracer records one.
   */
  readonly headers: Readonly<Record<string, string>>;
  /** The exact bytes to send (UTF-8), e.g. the signed event JSON. */
  readonly body: string;
  /** The whole attempt (DNS, connect, TLS, response headers, first 1 KiB of body). */
  readonly timeoutMs: number;
  readonly environment: RunEnvironment;
  readonly allowLoopback: boolean;
  /** Host name resolver; defaults to `dns.lookup`. Tests inject DNS answers here. */
  readonly resolve?: Resolver;
  /** Connection pools from `createWebhookAgents()`; without them each attempt opens its own connection. */
  readonly agents?: WebhookAgents;
  /** Ends the attempt early (error code `aborted`), e.g. when the caller gives up or shuts down. */
  readonly signal?: AbortSignal;
  /** How many bytes of the answer to keep; more closes the connection. @default RESPONSE_BODY_LIMIT */
  readonly responseBodyLimit?: number;
}

/**
 * Request option naming a connection pool. Node's agents key pools by host and port only,
 * so without it a socket opened while loopback was allowed (or under another resolver)
 * could be reused by a request whose policy would have refused that address.
 */
const POOL_KEY = Symbol('programrun.webhookPool');

type PooledRequestOptions = https.RequestOptions & { readonly [POOL_KEY]?: string };

function poolSuffix(options: http.ClientRequestArgs | undefined): string {
  const key = (options as PooledRequestOptions | undefined)?.[POOL_KEY];
  return key === undefined ? '' : `:${key}`;
}

class WebhookHttpAgent extends http.Agent {
  override getName(options?: http.ClientRequestArgs): string {
    return super.getName(options) + poolSuffix(options);
  }
}

class WebhookHttpsAgent extends https.Agent {
  override getName(options?: https.RequestOptions): string {
    return super.getName(options) + poolSuffix(options);
  }
}

const resolverIds = new WeakMap<Resolver, number>();
let lastResolverId = 0;

function poolKey(allowLoopback: boolean, resolve: Resolver | undefined): string {
  let id = resolve === undefined ? 0 : resolverIds.get(resolve);
  if (id === undefined) {
    id = ++lastResolverId;
    resolverIds.set(resolve!, id);
  }
  return `${allowLoopback ? 'loopback' : 'public'}:${id}`;
}

/**
 * One keep-alive http and one https agent (64 sockets per destination) for the
 * dispatcher to pass to every `sendWebhook`; `destroy()` closes them on shutdown.
 *
 * @example
 * ```ts
 * const agents = createWebhookAgents();
 * await sendWebhook({ ...request, agents });
 * agents.destroy();
 * ```
 */
export function createWebhookAgents(): WebhookAgents {
  const httpAgent = new WebhookHttpAgent({ keepAlive: true, maxSockets: 64 });
  const httpsAgent = new WebhookHttpsAgent({ keepAlive: true, maxSockets: 64 });
  return {
    http: httpAgent,
    https: httpsAgent,
    destroy() {
      httpAgent.destroy();
      httpsAgent.destroy();
    },
  };
}

/**
 * True when the attempt delivered the webhook: a 2xx answer.
 *
 * @example
 * ```ts
 * isSuccessfulAttempt({ status: 204, latencyMs: 12, error: null }); // true
 * isSuccessfulAttempt({ status: 500, latencyMs: 12, error: null }); // false
 * ```
 */
export function isSuccessfulAttempt(result: DeliveryAttemptResult): boolean {
  return (
    result.error === null && result.status !== null && result.status >= 200 && result.status < 300
  );
}

const SENDER_HEADERS = new Set([
  'content-type',
  'user-agent',
  'content-length',
  'host',
  'connection',
  'transfer-encoding',
]);

/**
 * The W3C trace context of the active span (`traceparent`, and `tracestate` when it has
 * one), so that the receiver's trace joins; none without a recording tracer.
 */
function traceHeaders(): Record<string, string> {
  const spanContext = trace.getSpanContext(contextApi.active());
  const traceparent = formatTraceparent(spanContext);
  if (traceparent === null) return {};
  const tracestate = spanContext?.traceState?.serialize();
  return tracestate ? { traceparent, tracestate } : { traceparent };
}

function headersOf(request: WebhookRequest, length: number): Record<string, string> {
  // A request that names its own trace context keeps it (and no tracestate of another).
  const own = Object.keys(request.headers).some((name) => name.toLowerCase() === 'traceparent');
  const headers: Record<string, string> = own ? {} : traceHeaders();
  for (const [name, value] of Object.entries(request.headers)) {
    if (!SENDER_HEADERS.has(name.toLowerCase())) headers[name.toLowerCase()] = value;
  }
  headers['content-type'] = 'application/json';
  headers['user-agent'] = WEBHOOK_USER_AGENT;
  headers['content-length'] = String(length);
  return headers;
}

function errnoCode(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

/** How much of a `retry-after` header an attempt keeps. */
const RETRY_AFTER_LIMIT = 64;

/** The raw `retry-after` header, cut to 64 characters, or null. */
function retryAfterOf(response: http.IncomingMessage): string | null {
  const value = response.headers['retry-after'];
  return typeof value === 'string' ? value.slice(0, RETRY_AFTER_LIMIT) : null;
}

/** OpenSSL and Node TLS codes: `ERR_SSL_WRONG_VERSION_NUMBER`, `CERT_HAS_EXPIRED`, `ERR_TLS_CERT_ALTNAME_INVALID`, … */
const TLS_CODE = /^(EPROTO$|ERR_TLS_|ERR_SSL_)|CERT|UNABLE_TO_/;

/**
 * A short reason from an error: OpenSSL's reason (`wrong version number`) when there is
 * one, else the first line of the message.
 */
function detailOf(error: unknown): string {
  if (!(error instanceof Error)) return '';
  const reason = (error as { reason?: unknown }).reason;
  const openssl = /error:[0-9A-F]+:[^:]*:[^:]*:([^:]+)/.exec(error.message)?.[1];
  const text = typeof reason === 'string' ? reason : (openssl ?? error.message);
  const line = text.split('\n')[0]!.slice(0, 200);
  return line === '' ? '' : `: ${line}`;
}

/** The delivery error of a request `error` event. */
function failureOf(error: unknown): DeliveryError {
  const code = errnoCode(error);
  const detail = detailOf(error);
  if (code === FORBIDDEN_ADDRESS && error instanceof Error) {
    return { code: FORBIDDEN_ADDRESS, message: error.message };
  }
  if (code !== undefined && TLS_CODE.test(code)) {
    return {
      code: 'tls_error',
      message: `The TLS handshake with the endpoint failed (${code})${detail}.`,
    };
  }
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') {
    return {
      code: 'connection_failed',
      message: `The endpoint host name could not be resolved (${code}).`,
    };
  }
  if (code !== undefined) {
    return {
      code: 'connection_failed',
      message: `The connection to the endpoint failed (${code}).`,
    };
  }
  return { code: 'connection_failed', message: `The connection to the endpoint failed${detail}.` };
}

function refused(started: number, error: DeliveryError): DeliveryAttemptResult {
  return { status: null, latencyMs: Math.round(performance.now() - started), error };
}

/**
 * Sends one webhook: a POST of `body` to `url`, re-checking the URL first, connecting
 * only to permitted addresses (IP literals checked here, host names by the guarded
 * lookup), never following redirects (a 3xx is `redirect_not_followed`), reading at most
 * 1 KiB of the answer (or `responseBodyLimit` bytes), and giving up after `timeoutMs`
 * (`timeout`) or when `signal` aborts (`aborted`). It never throws: every failure is a
 * result with a stable code. Inside a recording span (a delivery attempt's, a connector
 * call's) the request carries its W3C `traceparent`, so the receiver's trace can join.
 *
 * @example
 * ```ts
 * const result = await sendWebhook({
 *   url: 'https://hooks.example.com/programrun',
 *   headers: { 'webhook-id': event.id, 'webhook-timestamp': ts, 'webhook-signature': signature },
 *   body,
 *   timeoutMs: 15_000,
 *   environment: 'live',
 *   allowLoopback: false,
 *   agents,
 * });
 * if (!isSuccessfulAttempt(result)) scheduleRetry(result.error?.code ?? `http_${result.status}`);
 * ```
 */
export function sendWebhook(request: WebhookRequest): Promise<DeliveryAttemptResult> {
  const started = performance.now();
  if (request.signal?.aborted === true) {
    return Promise.resolve(refused(started, abortedError()));
  }
  const checked = checkEndpointUrl(request.url, request);
  if (!checked.ok) {
    return Promise.resolve(refused(started, { code: checked.code, message: checked.message }));
  }
  const { url } = checked;
  const address = hostAddress(url);
  // Node does not call `lookup` for an IP literal: this is the only check it gets.
  if (address !== null && !isPermittedAddress(address, request)) {
    return Promise.resolve(
      refused(started, {
        code: FORBIDDEN_ADDRESS,
        message:
          'The endpoint URL must name a public host, not a loopback, private, link-local or reserved address.',
      }),
    );
  }
  return new Promise((resolve) => exchange(request, url, address, started, resolve));
}

function exchange(
  request: WebhookRequest,
  url: URL,
  address: string | null,
  started: number,
  resolve: (result: DeliveryAttemptResult) => void,
): void {
  const secure = url.protocol === 'https:';
  const body = Buffer.from(request.body, 'utf8');
  const options: PooledRequestOptions = {
    method: 'POST',
    hostname: address ?? url.hostname,
    port: url.port === '' ? (secure ? 443 : 80) : Number(url.port),
    path: `${url.pathname}${url.search}`,
    headers: headersOf(request, body.length),
    lookup: createGuardedLookup(
      request.resolve === undefined
        ? { allowLoopback: request.allowLoopback }
        : { allowLoopback: request.allowLoopback, resolve: request.resolve },
    ),
    agent: (secure ? request.agents?.https : request.agents?.http) ?? false,
    [POOL_KEY]: poolKey(request.allowLoopback, request.resolve),
  };

  let status: number | null = null;
  let latencyMs = 0;
  let retryAfter: string | null = null;
  const chunks: Buffer[] = [];
  let received = 0;
  let settled = false;
  let outgoing: http.ClientRequest | undefined;
  const limit = request.responseBodyLimit ?? RESPONSE_BODY_LIMIT;

  const finish = (error: DeliveryError | null): void => {
    if (settled) return;
    settled = true;
    clearTimeout(timer);
    request.signal?.removeEventListener('abort', onAbort);
    if (status === null) {
      resolve({ status, latencyMs: Math.round(performance.now() - started), error });
    } else {
      const responseBody = Buffer.concat(chunks).subarray(0, limit).toString('utf8');
      resolve({
        status,
        latencyMs,
        error: error ?? redirectError(status),
        responseBody,
        retryAfter,
      });
    }
  };

  const timer = setTimeout(() => {
    // After the headers, the status decides: a slow body only ends the reading.
    finish(
      status === null
        ? {
            code: 'timeout',
            message: `The endpoint did not answer within ${request.timeoutMs} ms.`,
          }
        : null,
    );
    outgoing?.destroy();
  }, request.timeoutMs);

  const onAbort = (): void => {
    finish(abortedError());
    outgoing?.destroy();
  };
  request.signal?.addEventListener('abort', onAbort, { once: true });

  try {
    outgoing = (secure ? https : http).request(options);
  } catch (error) {
    const detail = error instanceof Error ? error.message : String(error);
    finish({ code: 'invalid_request', message: `The request could not be built: ${detail}.` });
    return;
  }
  const sending = outgoing;
  sending.on('error', (error) => finish(failureOf(error)));
  sending.on('response', (response) => {
    status = response.statusCode ?? 0;
    latencyMs = Math.round(performance.now() - started);
    retryAfter = retryAfterOf(response);
    // A body cut short after the status keeps what arrived.
    response.on('error', () => finish(null));
    response.on('close', () => finish(null));
    response.on('end', () => finish(null));
    response.on('data', (chunk: Buffer) => {
      if (settled) return;
      chunks.push(chunk);
      received += chunk.length;
      if (received > limit) {
        // Discard the rest by closing the connection rather than reading it.
        finish(null);
        sending.destroy();
      }
    });
  });
  sending.end(body);
}

function abortedError(): DeliveryError {
  return { code: 'aborted', message: 'The attempt was aborted.' };
}

function redirectError(status: number): DeliveryError | null {
  if (status < 300 || status > 399) return null;
  return {
    code: 'redirect_not_followed',
    message: `The endpoint answered ${status} (a redirect), and webhook deliveries never follow redirects.`,
  };
}
