import { describe, expect, it } from 'vitest';
import { checkResponseAgainstOpenApi, findOperation } from './openapi-conformance.js';

const REQUEST_ID = 'req_AAAAAAAAAAAAAAAAAAAA';

function answer(status: number, body: unknown, headers: Record<string, string> = {}) {
  return {
    status,
    headers: new Headers({ 'request-id': REQUEST_ID, ...headers }),
    bodyText: body === undefined ? '' : JSON.stringify(body),
  };
}

const problem = (status: number, code: string) =>
  answer(
    status,
    {
      type: `https://programrun.dev/problems/${code}`,
      title: 'Title',
      status,
      detail: 'Detail.',
      code,
      request_id: REQUEST_ID,
      errors: [],
    },
    { 'content-type': 'application/problem+json' },
  );

const clock = {
  object: 'test_clock',
  now: '2026-03-02T09:00:30.000Z',
  advanced_by: 30,
  timers_fired: 1,
  next_timer_at: null,
};
const json = { 'content-type': 'application/json' };

describe('checkResponseAgainstOpenApi', () => {
  it('accepts a documented answer', () => {
    const path = '/v1/test_helpers/clock/advance';
    expect(checkResponseAgainstOpenApi('POST', path, answer(200, clock, json))).toEqual([]);
    expect(checkResponseAgainstOpenApi('POST', path, problem(403, 'test_mode_only'))).toEqual([]);
  });

  it('names each deviation', () => {
    const path = '/v1/test_helpers/clock/advance';
    const check = (response: ReturnType<typeof answer>) =>
      checkResponseAgainstOpenApi('POST', path, response).join('\n');
    expect(check(answer(202, clock, json))).toMatch(/status 202 is not documented/);
    expect(check(answer(200, clock, { 'content-type': 'text/plain' }))).toMatch(/Content-Type/);
    expect(check(answer(200, { ...clock, now: undefined }, json))).toMatch(
      /must have required property 'now'/,
    );
    expect(check(answer(200, { ...clock, extra: 1 }, json))).toMatch(/additional properties/);
    expect(check(problem(403, 'run_not_found'))).toMatch(/code/);
    expect(check({ ...answer(200, clock, json), headers: new Headers(json) })).toMatch(
      /Request-Id/,
    );
    const unauthorized = problem(401, 'unauthorized');
    expect(check(unauthorized)).toMatch(/WWW-Authenticate is missing/);
    expect(
      check({
        ...problem(403, 'test_mode_only'),
        bodyText: problem(403, 'test_mode_only').bodyText.replace(
          REQUEST_ID,
          'req_BBBBBBBBBBBBBBBBBBBB',
        ),
      }),
    ).toMatch(/request_id/);
  });

  it('expects 404 outside the document and 405 with the documented methods', () => {
    expect(
      checkResponseAgainstOpenApi('GET', '/v1/nothing', problem(404, 'route_not_found')),
    ).toEqual([]);
    expect(checkResponseAgainstOpenApi('GET', '/v1/nothing', answer(200, {}, json)).join()).toMatch(
      /no documented path/,
    );
    const allowed = { ...problem(405, 'method_not_allowed') };
    allowed.headers.set('allow', 'GET, POST');
    expect(checkResponseAgainstOpenApi('DELETE', '/v1/program-runs', allowed)).toEqual([]);
    allowed.headers.set('allow', 'GET');
    expect(checkResponseAgainstOpenApi('DELETE', '/v1/program-runs', allowed).join()).toMatch(
      /Allow/,
    );
  });

  it('checks a body that is not JSON as text against its schema, and JSON bodies as JSON', () => {
    const digest = `sha256:${'a'.repeat(64)}`;
    const svg = {
      status: 200,
      headers: new Headers({
        'request-id': REQUEST_ID,
        'content-type': 'image/svg+xml; charset=utf-8',
        etag: `"${digest}"`,
        'cache-control': 'private, no-cache',
      }),
      bodyText: '<svg xmlns="http://www.w3.org/2000/svg"></svg>',
    };
    const path = '/v1/scenarios/wallet-delivery@v1/diagram';
    expect(checkResponseAgainstOpenApi('GET', path, svg)).toEqual([]);
    const notModified = { ...svg, status: 304, bodyText: '' };
    expect(checkResponseAgainstOpenApi('GET', path, notModified)).toEqual([]);
    expect(
      checkResponseAgainstOpenApi('GET', path, { ...notModified, bodyText: '<svg/>' }).join(),
    ).toMatch(/a body was sent where none is documented/);
    svg.headers.set('etag', 'W/"x"');
    expect(checkResponseAgainstOpenApi('GET', path, svg).join()).toMatch(/header ETag/);
    const notJson = { ...answer(200, clock, json), bodyText: 'event: run' };
    expect(
      checkResponseAgainstOpenApi('POST', '/v1/test_helpers/clock/advance', notJson).join(),
    ).toMatch(/not JSON/);
  });

  it('resolves concrete paths to operations, literal segments first', () => {
    expect(
      findOperation('GET', 'http://localhost/v1/program-runs/prun_1/events?limit=2'),
    ).toMatchObject({
      operationId: 'listProgramRunEvents',
      path: '/v1/program-runs/{id}/events',
    });
    expect(findOperation('GET', '/v1/scenarios/wallet-delivery@v1')?.operationId).toBe(
      'getScenario',
    );
    expect(findOperation('PUT', '/v1/scenarios')).toBeUndefined();
  });
});
