import type { z } from 'zod';
import { idempotencyKeyOf, type IdempotentRequest } from '../idempotency/idempotency.js';
import type { OperationSpec } from '../openapi/operation-spec.js';
import { readJsonBody } from '../request-body.js';
import { parseBody } from '../request-schemas.js';
import type { RouteContext } from '../router.js';
import { checkedNow } from './checked-now.js';
import { parsePath, parseQuery } from './parse-query.js';

/** What a route's handler gets: its path parameters, query and body, parsed by its spec. */
export interface RouteInput<S extends OperationSpec> {
  readonly params: S['params'] extends z.ZodObject
    ? z.output<S['params']>
    : Readonly<Record<string, never>>;
  readonly query: S['query'] extends z.ZodObject
    ? z.output<S['query']>
    : Readonly<Record<string, never>>;
  readonly body: S['body'] extends { readonly schema: infer B extends z.ZodType }
    ? z.output<B>
    : undefined;
}

/**
 * The JSON body of a route that declares one (`{}` for an empty body it allows), read
 * within the handler's size limit; `undefined` for a route without a body.
 */
export async function readRouteJson(
  spec: OperationSpec,
  context: RouteContext,
): Promise<Record<string, unknown> | undefined> {
  if (!spec.body) return undefined;
  return readJsonBody(context.request, {
    maxBytes: context.maxBodyBytes,
    allowEmpty: !spec.body.required,
  });
}

/** A write's request as read before any transaction: its input, checked now, and its key. */
export interface WriteRequest<S extends OperationSpec> {
  /** The parsed input, or the refusal to answer once a replay would have been answered. */
  readonly input: () => RouteInput<S>;
  /** The Idempotency-Key protocol's view of the request; undefined without a key. */
  readonly idempotent: IdempotentRequest | undefined;
}

/**
 * Reads a write: the body (size, media type, strict JSON), the Idempotency-Key (required
 * or optional, as the spec says), and the input parsed now but refused later, so a replay
 * is answered before a validation problem.
 */
export async function readWrite<S extends OperationSpec>(
  spec: S,
  context: RouteContext,
): Promise<WriteRequest<S>> {
  const { request, principal } = context;
  const json = await readRouteJson(spec, context);
  const key = idempotencyKeyOf(request, { required: spec.idempotencyKey === 'required' });
  const input = checkedNow(() => parseRouteInput(spec, context, json));
  return {
    input,
    idempotent:
      key === undefined
        ? undefined
        : {
            scope: principal,
            key,
            credentialId: principal.credentialId,
            method: request.method,
            path: context.url.pathname,
            body: json ?? {},
            requestId: context.requestId,
          },
  };
}

/**
 * The route's input parsed by its spec's schemas: `invalid_path`, `invalid_query` or
 * `invalid_request` (with a pointer per problem) when it does not parse.
 */
export function parseRouteInput<S extends OperationSpec>(
  spec: S,
  context: RouteContext,
  json: Record<string, unknown> | undefined,
): RouteInput<S> {
  return {
    params: spec.params ? parsePath(spec.params, context.params) : {},
    query: spec.query ? parseQuery(spec.query, context.url) : {},
    body: spec.body && json !== undefined ? parseBody(spec.body.schema, json) : undefined,
  } as RouteInput<S>;
}
