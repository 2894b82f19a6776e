import { z } from 'zod';
import type {
  ZodOpenApiOperationObject,
  ZodOpenApiParameters,
  ZodOpenApiResponsesObject,
} from 'zod-openapi';
import {
  idempotencyKeyHeader,
  idempotentReplayedHeader,
  originalRequestIdHeader,
  requestIdHeader,
} from './headers.js';
import { commonErrors, type OperationSpec } from './operation-spec.js';
import { problemResponses, type SharedResponses } from './problem-responses.js';

const IDEMPOTENCY_KEY_DESCRIPTION = {
  required:
    'A unique key per creation attempt (e.g. a UUID); a retry with the same key and body replays the first answer.',
  optional:
    'Optional: a retry with the same key and body replays the first answer instead of signalling again.',
} as const;

function requestParams(spec: OperationSpec): ZodOpenApiParameters {
  const params: ZodOpenApiParameters = {};
  if (spec.params) params.path = spec.params;
  if (spec.query) params.query = spec.query;
  if (spec.idempotencyKey) {
    const header = idempotencyKeyHeader.meta({
      param: { description: IDEMPOTENCY_KEY_DESCRIPTION[spec.idempotencyKey] },
    });
    params.header = z.object({
      'Idempotency-Key': spec.idempotencyKey === 'required' ? header : header.optional(),
    });
  }
  return params;
}

function successResponses(spec: OperationSpec): ZodOpenApiResponsesObject {
  const responses: ZodOpenApiResponsesObject = {};
  for (const success of spec.responses) {
    const headers: Record<string, z.ZodType> = {
      'Request-Id': requestIdHeader,
      ...success.headers,
    };
    if (spec.idempotencyKey) {
      headers['Idempotent-Replayed'] = idempotentReplayedHeader.optional();
      headers['Original-Request-Id'] = originalRequestIdHeader.optional();
    }
    responses[`${success.status}`] = {
      description: success.description,
      headers: z.object(headers),
      ...(success.schema
        ? { content: { [success.contentType ?? 'application/json']: { schema: success.schema } } }
        : {}),
    };
  }
  return responses;
}

/**
 * The OpenAPI operation of a spec: parameters (with `Idempotency-Key`), the request body
 * from the route's own zod schema, success responses with their headers, and a
 * problem+json response for every status the operation can answer.
 */
export function toOperation(
  spec: OperationSpec,
  shared: SharedResponses,
): ZodOpenApiOperationObject {
  return {
    operationId: spec.operationId,
    tags: [spec.tag],
    summary: spec.summary,
    description: spec.description,
    security: spec.public ? [] : [{ ApiKey: spec.scope ? [spec.scope] : [] }],
    requestParams: requestParams(spec),
    ...(spec.body
      ? {
          requestBody: {
            required: spec.body.required,
            content: { 'application/json': { schema: spec.body.schema } },
          },
        }
      : {}),
    responses: {
      ...successResponses(spec),
      ...problemResponses(
        [...commonErrors(spec), ...spec.errors],
        {
          replayable: spec.idempotencyKey !== undefined,
          ...(spec.problemSchemas ? { schemas: spec.problemSchemas } : {}),
        },
        shared,
      ),
    },
  };
}
