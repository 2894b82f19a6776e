import type { RequestListener } from 'node:http';
import type { Handler } from './handler.js';
import { toFetchRequest, writeResponse } from './node-conversion.js';
import { logAdapterFailure } from './logging/log-request.js';
import { adapterProblem } from './request-id.js';

export { toFetchRequest, writeResponse } from './node-conversion.js';

/** Options of {@link createNodeListener}. */
export interface NodeListenerOptions {
  /** Stop reading bodies beyond this size (the handler answers 413). @default the handler's limit */
  readonly maxBodyBytes?: number;
}

/**
 * The node:http adapter: a request listener for `http.createServer`.
 *
 * @example
 * ```ts
 * import { createServer } from 'node:http';
 * import { createNodeListener } from '@programrun/http/node';
 * createServer(createNodeListener(handler)).listen(8787, '127.0.0.1');
 * ```
 */
export function createNodeListener(
  handler: Handler,
  options: NodeListenerOptions = {},
): RequestListener {
  const maxBodyBytes = options.maxBodyBytes ?? handler.maxBodyBytes;
  return (message, response) => {
    void (async () => {
      try {
        await writeResponse(
          await handler.handle(await toFetchRequest(message, maxBodyBytes)),
          response,
        );
      } catch (error) {
        if (response.headersSent) response.destroy();
        else {
          const problem = adapterProblem(error);
          logAdapterFailure(handler.errorLog, message, problem);
          await writeResponse(problem, response).catch(() => response.destroy());
        }
      }
    })();
  };
}
