import { z } from 'zod';
import type { ZodOpenApiResponseObject, ZodOpenApiResponsesObject } from 'zod-openapi';
import { ERROR_CATALOGUE, type ErrorCode } from '../errors/error-catalogue.js';
import {
  idempotentReplayedHeader,
  originalRequestIdHeader,
  requestIdHeader,
  retryAfterHeader,
  wwwAuthenticateHeader,
} from './headers.js';

/**
 * Where the shared problem schema lives in the document.
 */
export const PROBLEM_SCHEMA_REF = '#/components/schemas/Problem';

/** Response objects shared by every operation that answers them, by key. */
export type SharedResponses = Map<string, ZodOpenApiResponseObject>;

const pascalCase = (code: string): string =>
  code.replace(/(^|_)([a-z])/g, (_match, _separator, letter: string) => letter.toUpperCase());

function problemResponse(
  status: number,
  codes: readonly ErrorCode[],
  replayable: boolean,
  schema: z.ZodType | undefined,
): { response: ZodOpenApiResponseObject; shareable: boolean } {
  const headers: Record<string, z.ZodType> = { 'Request-Id': requestIdHeader };
  if (status === 401) headers['WWW-Authenticate'] = wwwAuthenticateHeader;
  // A missing scope is challenged too (RFC 6750 `insufficient_scope`); other 403s are not.
  if (codes.includes('insufficient_scope')) {
    headers['WWW-Authenticate'] =
      codes.length === 1 ? wwwAuthenticateHeader : wwwAuthenticateHeader.optional();
  }
  if (status === 429) headers['Retry-After'] = retryAfterHeader;
  // Every authenticated operation answers the same 401s.
  let shareable = codes.length === 1 || status === 401;
  if (codes.includes('idempotency_key_in_use')) {
    headers['Retry-After'] = retryAfterHeader.optional();
    shareable = false;
  }
  // Decided conflicts (409) are stored and replayed like successes.
  if (replayable && status === 409) {
    headers['Idempotent-Replayed'] = idempotentReplayedHeader.optional();
    headers['Original-Request-Id'] = originalRequestIdHeader.optional();
    shareable = false;
  }
  const lines = codes.map((code) => `- \`${code}\`: ${ERROR_CATALOGUE[code].title}.`);
  return {
    // A document of its own is the operation's, never a shared component.
    shareable: shareable && schema === undefined,
    response: {
      description: `Problem, with \`code\`:\n\n${lines.join('\n')}`,
      headers: z.object(headers),
      content: {
        'application/problem+json': {
          schema: schema ?? {
            allOf: [
              { $ref: PROBLEM_SCHEMA_REF },
              {
                type: 'object',
                properties: { code: { enum: [...codes] }, status: { const: status } },
              },
            ],
          },
        },
      },
    },
  };
}

/**
 * The problem+json responses of an operation, one per status its codes map to in the
 * error catalogue; each narrows the shared `Problem` schema to the codes it can carry.
 * A single-code response (403 `insufficient_scope`, 500 `internal_error`…) and the 401
 * every authenticated operation answers become shared components named after their codes
 * (`InvalidTokenOrUnauthorized`).
 */
export function problemResponses(
  codes: readonly ErrorCode[],
  options: {
    readonly replayable: boolean;
    /** Full schemas of codes whose documents carry more than `Problem`. */
    readonly schemas?: Partial<Readonly<Record<ErrorCode, z.ZodType>>>;
  },
  shared: SharedResponses,
): ZodOpenApiResponsesObject {
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of new Set(codes)) {
    const status = ERROR_CATALOGUE[code].status;
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  const responses: ZodOpenApiResponsesObject = {};
  for (const status of [...byStatus.keys()].sort((a, b) => a - b)) {
    const statusCodes = byStatus.get(status)!.sort();
    const own = statusCodes.map((code) => options.schemas?.[code]).find(Boolean);
    if (own && statusCodes.length > 1)
      throw new TypeError(
        `${statusCodes.join(', ')} share status ${status}; one has its own schema`,
      );
    const { response, shareable } = problemResponse(status, statusCodes, options.replayable, own);
    const id = statusCodes.map(pascalCase).join('Or');
    if (shareable && !shared.has(id)) shared.set(id, { ...response, id });
    responses[`${status}` as `4${string}`] = shareable ? shared.get(id)! : response;
  }
  return responses;
}
