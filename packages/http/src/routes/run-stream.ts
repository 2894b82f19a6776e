import { z } from 'zod';
import type { Route } from '../router.js';
import { runEventStream } from '../streams/run-event-stream.js';
import { defineRoute } from './define-route.js';
import { runIdParameter } from './parameters.js';

/** The media type of Server-Sent Events (always UTF-8). */
export const EVENT_STREAM_MEDIA_TYPE = 'text/event-stream';

/**
 * `GET /v1/program-runs/{id}/stream`: the run as Server-Sent Events, each change as it
 * commits. The run is read (and a run of another scope answered 404) before the stream
 * opens; the stream counts once against the rate limit, and against the credential's
 * open streams while it lasts.
 */
const streamRun = defineRoute(
  {
    method: 'GET',
    path: '/v1/program-runs/:id/stream',
    operationId: 'streamProgramRun',
    scope: 'runs:read',
    tag: 'Program runs',
    summary: 'Watch a run',
    description:
      'The run as Server-Sent Events: `event: run` with the `program_run` (JSON on one `data:` line) and its `updated_at` as `id` at once, then again each time it changes (right after a commit on this host; within a second when another host sharing the store committed it), and a `: keep-alive` comment every 15 s. The stream ends after it sent a final run (`completed`, `faulted`, `cancelled`), after 5 minutes, and when the server stops; reconnect to keep watching (the first event is the run as it is then). Read it with `fetch` and a stream reader so the key stays in the `Authorization` header (never in a URL). A credential holds at most 10 streams at once (`429 too_many_streams`); the stream counts as one request for the rate limit.',
    params: z.object({ id: runIdParameter }),
    responses: [
      {
        status: 200,
        description: 'The event stream; it stays open until it ends as described above.',
        contentType: EVENT_STREAM_MEDIA_TYPE,
        schema: z.string().meta({
          description:
            'Events `event: run\\nid: <updated_at>\\ndata: <program_run JSON>\\n\\n` (a change within the same `updated_at` gets `<updated_at>#2`, `#3`…), and `: keep-alive\\n\\n` comments.',
          examples: [
            'event: run\nid: 2026-03-02T09:00:00.000Z\ndata: {"object":"program_run","id":"prun_…",…}\n\n',
          ],
        }),
        headers: {
          'Cache-Control': z
            .literal('no-store')
            .meta({ description: 'Never cached: every event is live.' }),
        },
      },
    ],
    errors: ['run_not_found', 'too_many_streams'],
  },
  {
    answer: async ({ params }, { engine, principal, streams, request }) => {
      const first = await engine.getRun(principal, params.id);
      const stream = streams.open(principal, (release) =>
        runEventStream(
          first,
          {
            read: () => engine.getRun(principal, params.id),
            watch: (listener) => engine.watchRun(principal, params.id, listener),
          },
          { policy: streams.policy, release, signal: request.signal },
        ),
      );
      return new Response(stream, {
        status: 200,
        headers: {
          'content-type': EVENT_STREAM_MEDIA_TYPE,
          'cache-control': 'no-store',
          // Proxies that buffer responses (nginx) pass each event on at once.
          'x-accel-buffering': 'no',
        },
      });
    },
  },
);

/** A run's live updates. */
export const runStreamRoutes: readonly Route[] = [streamRun];
