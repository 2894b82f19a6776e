import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';

/** One delivery the receiver got and verified. */
export interface ReceivedDelivery {
  readonly id: string;
  readonly timestamp: string;
  readonly signature: string;
  readonly body: string;
  readonly event: { id: string; type: string; sequence: number | null; run: { id: string } | null };
}

/** How the receiver answers: a status, or `hang` (never answers). */
export type ReceiverMode = number | 'hang' | ((delivery: ReceivedDelivery) => number);

/** A real webhook receiver on 127.0.0.1 that verifies every delivery with `standardwebhooks`. */
export interface TestReceiver {
  readonly url: string;
  /** Verified deliveries answered 2xx, in arrival order (duplicates included). */
  readonly received: ReceivedDelivery[];
  /** Every verified request, whatever the answer. */
  readonly seen: ReceivedDelivery[];
  /** Requests whose signature did not verify with any configured secret. */
  readonly rejected: string[];
  /** Most requests open at once. */
  readonly maxConcurrent: number;
  mode: ReceiverMode;
  /** Secrets a delivery may verify with (any one suffices). */
  secrets: string[];
  /** Stops listening (connections are refused) until `up`. */
  down(): Promise<void>;
  up(): Promise<void>;
  close(): Promise<void>;
}

/**
 * Starts a receiver on 127.0.0.1. Each request is verified with the official
 * `standardwebhooks` package against each secret; failures answer 400.
 *
 * @example
 * ```ts
 * const receiver = await startReceiver([secret]);
 * ```
 */
export async function startReceiver(secrets: string[] = []): Promise<TestReceiver> {
  let server: Server | undefined;
  let port = 0;
  let open = 0;
  const hanging = new Set<ServerResponse>();
  const state = {
    received: [] as ReceivedDelivery[],
    seen: [] as ReceivedDelivery[],
    rejected: [] as string[],
    maxConcurrent: 0,
    mode: 204 as ReceiverMode,
    secrets,
  };

  const handle = (request: IncomingMessage, response: ServerResponse): void => {
    open += 1;
    state.maxConcurrent = Math.max(state.maxConcurrent, open);
    response.on('close', () => (open -= 1));
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const headers = {
        'webhook-id': String(request.headers['webhook-id']),
        'webhook-timestamp': String(request.headers['webhook-timestamp']),
        'webhook-signature': String(request.headers['webhook-signature']),
      };
      const verified = state.secrets.some((secret) => {
        try {
          new Webhook(secret).verify(body, headers);
          return true;
        } catch {
          return false;
        }
      });
      if (!verified) {
        state.rejected.push(headers['webhook-id']);
        response.writeHead(400).end();
        return;
      }
      const delivery: ReceivedDelivery = {
        id: headers['webhook-id'],
        timestamp: headers['webhook-timestamp'],
        signature: headers['webhook-signature'],
        body,
        event: JSON.parse(body) as ReceivedDelivery['event'],
      };
      state.seen.push(delivery);
      const mode = state.mode;
      if (mode === 'hang') {
        hanging.add(response);
        return;
      }
      const status = typeof mode === 'function' ? mode(delivery) : mode;
      if (status >= 200 && status < 300) state.received.push(delivery);
      response.writeHead(status).end();
    });
  };

  const listen = () =>
    new Promise<void>((resolve) => {
      server = createServer(handle);
      server.keepAliveTimeout = 1000;
      server.listen(port, '127.0.0.1', () => {
        port = (server!.address() as AddressInfo).port;
        resolve();
      });
    });
  const stop = () =>
    new Promise<void>((resolve) => {
      if (!server) return resolve();
      for (const response of hanging) response.destroy();
      hanging.clear();
      server.closeAllConnections();
      server.close(() => resolve());
      server = undefined;
    });

  await listen();
  return {
    get url() {
      return `http://127.0.0.1:${port}/webhooks`;
    },
    get received() {
      return state.received;
    },
    get seen() {
      return state.seen;
    },
    get rejected() {
      return state.rejected;
    },
    get maxConcurrent() {
      return state.maxConcurrent;
    },
    get mode() {
      return state.mode;
    },
    set mode(mode: ReceiverMode) {
      state.mode = mode;
    },
    get secrets() {
      return state.secrets;
    },
    set secrets(list: string[]) {
      state.secrets = list;
    },
    down: stop,
    up: listen,
    close: stop,
  };
}
