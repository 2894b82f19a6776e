import type { Request as ExpressRequest, RequestHandler } from 'express';
import { HttpError } from './errors/http-error.js';
import type { Handler } from './handler.js';
import { toFetchRequest, writeResponse } from './node-conversion.js';
import { adapterProblem } from './request-id.js';
import { handlerPaths, isUnderPaths } from './v1-path.js';

/** Options of {@link createExpressMiddleware}. */
export interface ExpressMiddlewareOptions {
  /** Stop reading bodies beyond this size (the handler answers 413). @default the handler's limit */
  readonly maxBodyBytes?: number;
}

// A body parser mounted earlier (express.json(), express.raw(), …) has drained the stream;
// reading it again would see an empty body, which must never pass for the real one.
function bodyAlreadyRead(request: ExpressRequest): boolean {
  if (request.method === 'GET' || request.method === 'HEAD') return false;
  return request.body !== undefined || request.readableDidRead;
}

const bodyAlreadyReadProblem = (): Response =>
  adapterProblem(
    new HttpError(
      'body_already_read',
      'Another middleware read the request body before programrun; mount programrun before express.json() and other body parsers.',
    ),
  );

/**
 * The Express 5 adapter: middleware that answers `/v1` and everything under it (the
 * handler's `paths`) and calls `next()` for any other path. It reads the raw body itself
 * (up to the handler's `maxBodyBytes`), so mount it **before** `express.json()` or any other body parser; a
 * body another middleware already read is answered `400 body_already_read`. Mounted
 * under a path (`app.use('/payments', …)`), it sees the path without that prefix.
 *
 * @example
 * ```ts
 * import express from 'express';
 * import { createExpressMiddleware } from '@programrun/http/express';
 *
 * const app = express();
 * app.use(createExpressMiddleware(handler)); // before express.json()
 * app.use(express.json());
 * app.get('/health', (_request, response) => void response.json({ ok: true }));
 * app.listen(8787, '127.0.0.1');
 * ```
 */
export function createExpressMiddleware(
  handler: Handler,
  options: ExpressMiddlewareOptions = {},
): RequestHandler {
  const maxBodyBytes = options.maxBodyBytes ?? handler.maxBodyBytes;
  const paths = handlerPaths(handler);
  // Express 5 passes a rejected promise (a dropped connection, say) to next(error).
  return async (request, response, next) => {
    if (!isUnderPaths(paths, request.path)) {
      next();
      return;
    }
    const answer = bodyAlreadyRead(request)
      ? bodyAlreadyReadProblem()
      : await handler.handle(await toFetchRequest(request, maxBodyBytes));
    await writeResponse(answer, response);
  };
}
