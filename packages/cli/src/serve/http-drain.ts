import type { RequestListener, Server, ServerResponse } from 'node:http';

/** What draining the HTTP server came to. */
export interface HttpDrain {
  /** Requests being answered when the server stopped accepting. */
  readonly inFlight: number;
  /** Of those, how many were still running at the deadline and had their connection closed. */
  readonly cutOff: number;
}

/** A listener that counts the requests it is answering, and drains them. */
export interface DrainableListener {
  readonly listener: RequestListener;
  /**
   * Stops accepting connections, lets the requests in flight finish (each answered with
   * `Connection: close`, and idle kept-alive connections closed) until `deadline`
   * (`Date.now()` ms), then closes every connection left.
   */
  drain(server: Server, deadline: number): Promise<HttpDrain>;
}

/** Wraps `listener` so the server it serves can be drained. */
export function drainableListener(listener: RequestListener): DrainableListener {
  const answering = new Set<ServerResponse>();
  let closing: Server | null = null;
  return {
    listener(request, response) {
      answering.add(response);
      if (closing) response.setHeader('connection', 'close');
      response.once('close', () => {
        answering.delete(response);
        // A kept-alive connection idle again while draining is closed at once.
        if (closing) setImmediate(() => closing?.closeIdleConnections());
      });
      listener(request, response);
    },
    async drain(server, deadline) {
      closing = server;
      const inFlight = answering.size;
      for (const response of answering)
        if (!response.headersSent) response.setHeader('connection', 'close');
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      let timer: ReturnType<typeof setTimeout> | undefined;
      const finished = await Promise.race([
        closed.then(() => true),
        new Promise<false>((resolve) => {
          timer = setTimeout(() => resolve(false), Math.max(0, deadline - Date.now()));
        }),
      ]);
      clearTimeout(timer);
      const cutOff = finished ? 0 : answering.size;
      if (!finished) {
        server.closeAllConnections();
        await closed;
      }
      return { inFlight, cutOff };
    },
  };
}
