import type { Handler } from './handler.js';
import { handlerPaths, isUnderPaths } from './v1-path.js';

/**
 * One handler standing for several, to serve them from one listener or one adapter: a
 * request goes to the first handler whose `paths` cover its path, and any other path to
 * the last handler (put the `/v1` handler last: it also answers `/healthz` and `/readyz`
 * and 404s the rest). Its `paths` are all of theirs, so the framework adapters pass each
 * handler's paths on; its body limit is the largest of theirs.
 *
 * @example
 * ```ts
 * import { createServer } from 'node:http';
 * import { createConsoleHandler } from '@programrun/console';
 * import { firstMatching } from '@programrun/http';
 * import { createNodeListener } from '@programrun/http/node';
 *
 * const both = firstMatching(createConsoleHandler(), handler); // /console/…, then /v1/…
 * createServer(createNodeListener(both)).listen(8787, '127.0.0.1');
 * ```
 */
export function firstMatching(...handlers: [Handler, ...Handler[]]): Handler {
  const last = handlers[handlers.length - 1]!;
  const routes = handlers.map((handler) => ({ handler, paths: handlerPaths(handler) }));
  const errorLog = handlers.find((handler) => handler.errorLog)?.errorLog;
  return {
    paths: [...new Set(routes.flatMap((route) => route.paths))],
    maxBodyBytes: Math.max(...handlers.map((handler) => handler.maxBodyBytes)),
    errorLog,
    handle(request) {
      const { pathname } = new URL(request.url);
      const route = routes.find((candidate) => isUnderPaths(candidate.paths, pathname));
      return (route?.handler ?? last).handle(request);
    },
  };
}
