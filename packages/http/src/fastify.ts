import type {
  FastifyError,
  FastifyPluginCallback,
  FastifyReply,
  FastifyRequest,
  FastifyServerOptions,
} from 'fastify';
import type { Handler } from './handler.js';
import {
  fetchRequestOf,
  headersOf,
  isEventStream,
  readNodeBody,
  responseParts,
  type NodeBody,
} from './node-conversion.js';
import { handlerPaths, isUnderPaths } from './v1-path.js';

/** Options of {@link programrunFastify}. */
export interface ProgramrunFastifyOptions {
  /** The programrun handler from `createHandler`. */
  readonly handler: Handler;
  /** Largest accepted body, as the routes' Fastify `bodyLimit`. @default the handler's limit */
  readonly maxBodyBytes?: number;
}

/** Options of {@link programrunFrameworkErrors}. */
export interface ProgramrunFrameworkErrorsOptions {
  /** The `prefix` programrunFastify was registered with. @default '' */
  readonly prefix?: string;
  /** Largest accepted body. @default the handler's limit */
  readonly maxBodyBytes?: number;
}

const withoutPrefix = (url: string, prefix: string): string =>
  url.startsWith(prefix) ? url.slice(prefix.length) || '/' : url;

async function answer(
  handler: Handler,
  request: FastifyRequest,
  reply: FastifyReply,
  body: NodeBody,
  path: string,
) {
  const response = await handler.handle(fetchRequestOf(request.raw, body, path));
  // Sent as it comes; Fastify cancels the stream when the client goes away.
  if (isEventStream(response))
    return reply.code(response.status).headers(headersOf(response)).send(response.body);
  const parts = await responseParts(response);
  return reply.code(parts.status).headers(parts.headers).send(parts.body);
}

/**
 * The Fastify 5 adapter, a real plugin: it routes every method on `/v1` and `/v1/*` (each
 * of the handler's `paths`) to programrun, and sends its responses through `reply` (so
 * your hooks still run). Inside its own encapsulated context it replaces the content-type
 * parsers with one that hands over raw bytes for any content type, with `bodyLimit` set to
 * the handler's `maxBodyBytes`; your parsers and error handler outside it are untouched. A
 * `prefix` given to `register` is stripped before programrun sees the path. URLs Fastify
 * cannot decode never reach a plugin: see {@link programrunFrameworkErrors}. Register it
 * once per handler (the console's next to the API's).
 *
 * @example
 * ```ts
 * import { fastify } from 'fastify';
 * import { programrunFastify } from '@programrun/http/fastify';
 *
 * const app = fastify();
 * await app.register(programrunFastify, { handler });
 * app.get('/health', () => ({ ok: true }));
 * await app.listen({ port: 8787, host: '127.0.0.1' });
 * ```
 */
export const programrunFastify: FastifyPluginCallback<ProgramrunFastifyOptions> = (
  instance,
  options,
  done,
) => {
  const { handler } = options;
  const bodyLimit = options.maxBodyBytes ?? handler.maxBodyBytes;
  const respond = (request: FastifyRequest, reply: FastifyReply, body: NodeBody) =>
    answer(handler, request, reply, body, withoutPrefix(request.url, instance.prefix));

  instance.removeAllContentTypeParsers();
  instance.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit }, (_request, body, next) => {
    next(null, body);
  });

  // Fastify refuses some bodies before any route runs; answer those as programrun would.
  instance.setErrorHandler(async (error, request, reply) => {
    switch ((error as { code?: unknown }).code) {
      case 'FST_ERR_CTP_BODY_TOO_LARGE':
        return respond(request, reply, 'too_large');
      case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
        // A malformed Content-Type: the body is unread, so programrun reads it and decides.
        return respond(request, reply, await readNodeBody(request.raw, bodyLimit));
      default:
        throw error; // the host's error handler takes it
    }
  });

  const route = (url: string) =>
    instance.route({
      method: instance.supportedMethods,
      url,
      bodyLimit,
      handler: (request, reply) => respond(request, reply, request.body as Buffer | undefined),
    });
  for (const path of handlerPaths(handler)) {
    route(path);
    route(`${path}/*`);
  }
  done();
};

/**
 * A `frameworkErrors` option for `fastify()`. Fastify's router refuses URLs it cannot
 * decode (`/v1/%zz`) before any plugin runs, so {@link programrunFastify} never sees
 * them; with this option programrun answers those under `/v1` too (a problem+json
 * `404` with a `Request-Id`, as on every other adapter). Other paths get Fastify's own
 * error, as without the option.
 *
 * @example
 * ```ts
 * const app = fastify({ frameworkErrors: programrunFrameworkErrors(handler) });
 * await app.register(programrunFastify, { handler });
 * ```
 */
export function programrunFrameworkErrors(
  handler: Handler,
  options: ProgramrunFrameworkErrorsOptions = {},
): NonNullable<FastifyServerOptions['frameworkErrors']> {
  const prefix = options.prefix ?? '';
  const bodyLimit = options.maxBodyBytes ?? handler.maxBodyBytes;
  const frameworkErrors = (error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    const path = withoutPrefix(request.url, prefix);
    if (
      !request.url.startsWith(prefix) ||
      !isUnderPaths(handlerPaths(handler), path.split('?')[0]!)
    ) {
      void reply.send(error);
      return;
    }
    void readNodeBody(request.raw, bodyLimit)
      .then((body) => answer(handler, request, reply, body, path))
      .catch((failure: unknown) => reply.send(failure));
  };
  return frameworkErrors;
}
