import { scenarioSvg, type CompiledScenario } from '@programrun/dsl';
import { z } from 'zod';
import { rememberResponseText } from '../body-cache.js';
import type { Route } from '../router.js';
import { defineRoute } from './define-route.js';
import { scenarioIdParameter } from './parameters.js';

/** The SVG media type, UTF-8 as the document's XML declaration says. */
export const SVG_MEDIA_TYPE = 'image/svg+xml; charset=utf-8';

/** Revalidated every time (the digest makes that a 304), never kept by shared caches. */
const CACHE_CONTROL = 'private, no-cache';

/** Most diagrams kept; a catalogue is rarely larger, and a miss only redraws one. */
const MAX_CACHED = 256;
const drawn = new Map<string, string>();

/** The scenario's SVG, drawn once per digest (the same digest draws the same bytes). */
function diagramOf(scenario: CompiledScenario): string {
  let svg = drawn.get(scenario.digest);
  if (svg === undefined) {
    svg = scenarioSvg(scenario);
    if (drawn.size >= MAX_CACHED) drawn.delete(drawn.keys().next().value!);
    drawn.set(scenario.digest, svg);
  }
  return svg;
}

/** Whether `If-None-Match` names `etag` (weak comparison, RFC 9110 §13.1.2) or is `*`. */
function matches(ifNoneMatch: string | null, etag: string): boolean {
  if (ifNoneMatch === null) return false;
  return ifNoneMatch
    .split(',')
    .map((tag) => tag.trim().replace(/^W\//, ''))
    .some((tag) => tag === '*' || tag === etag);
}

const etagHeader = z
  .string()
  .regex(/^"sha256:[0-9a-f]{64}"$/)
  .meta({
    description: 'The scenario’s digest, quoted: send it back in `If-None-Match` to revalidate.',
  });
const cacheControlHeader = z
  .literal(CACHE_CONTROL)
  .meta({ description: 'Revalidate each time: an unchanged scenario answers 304.' });

/**
 * `GET /v1/scenarios/{id}/diagram`: the statechart a run page lights up, as `scenarioSvg`
 * draws it (nodes `step_<id>` with `data-step`, `ending_<name>`, `run_start`; edges with
 * `data-from`/`data-to`), with the scenario digest as its ETag.
 */
const getScenarioDiagram = defineRoute(
  {
    method: 'GET',
    path: '/v1/scenarios/:id/diagram',
    operationId: 'getScenarioDiagram',
    scope: 'runs:read',
    tag: 'Scenarios',
    storeFree: true,
    summary: 'Draw a scenario',
    description:
      'The scenario’s flow as a standalone SVG document (the same drawing as `programrun graph --format svg`): stages as boxes, a shape per step kind, each step node `step_<id>` with `data-step`, endings `ending_<name>`, the start `run_start`, and each edge with `data-from` and `data-to`, so a client can light up the path a run took. The `ETag` is the scenario digest; with `If-None-Match` an unchanged scenario answers `304`.',
    params: z.object({ id: scenarioIdParameter }),
    responses: [
      {
        status: 200,
        description: 'The SVG document.',
        contentType: 'image/svg+xml',
        schema: z.string().meta({ description: 'An SVG 1.1 document (UTF-8).' }),
        headers: { ETag: etagHeader, 'Cache-Control': cacheControlHeader },
      },
      {
        status: 304,
        description: 'The diagram named by `If-None-Match` is current; no body.',
        headers: { ETag: etagHeader, 'Cache-Control': cacheControlHeader },
      },
    ],
    errors: ['scenario_not_found'],
  },
  {
    answer: ({ params }, { engine, request }) => {
      const scenario = engine.scenarios.get(params.id);
      const etag = `"${scenario.digest}"`;
      const headers = { etag, 'cache-control': CACHE_CONTROL };
      if (matches(request.headers.get('if-none-match'), etag))
        return Promise.resolve(new Response(null, { status: 304, headers }));
      const svg = diagramOf(scenario);
      return Promise.resolve(
        rememberResponseText(
          new Response(svg, {
            status: 200,
            headers: { ...headers, 'content-type': SVG_MEDIA_TYPE },
          }),
          svg,
        ),
      );
    },
  },
);

/** The scenario's diagram. */
export const scenarioDiagramRoutes: readonly Route[] = [getScenarioDiagram];
