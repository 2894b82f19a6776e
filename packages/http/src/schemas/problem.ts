import { z } from 'zod';
import { ERROR_CATALOGUE, type ErrorCode } from '../errors/error-catalogue.js';
import { PROBLEM_TYPE_BASE } from '../errors/problem-response.js';
import { prefixedString } from './common.js';

const codes = Object.keys(ERROR_CATALOGUE) as [ErrorCode, ...ErrorCode[]];

/**
 * One field problem: a JSON pointer into the request body or query.
 *
 * @example
 * ```ts
 * problemFieldSchema.parse({ pointer: '/inputs/amount', code: 'invalid_input', message: 'must be…' });
 * ```
 */
export const problemFieldSchema = z
  .object({
    pointer: z.string().meta({
      description: 'RFC 6901 JSON pointer into the body (or the query parameter name).',
      examples: ['/inputs/amount'],
    }),
    code: z.string().meta({ examples: ['missing_field', 'unknown_field', 'invalid_field'] }),
    message: z.string(),
  })
  .meta({ description: 'What is wrong with one field.' });

/**
 * The RFC 9457 problem document every error answers with (`ProblemDocument`); `code`
 * lists the error catalogue as it is at run time, so new codes flow in.
 *
 * @example
 * ```ts
 * problemSchema.parse(await response.json()).code; // 'run_not_found'
 * ```
 */
export const problemSchema = z
  .object({
    type: prefixedString(PROBLEM_TYPE_BASE).meta({
      format: 'uri',
      examples: [`${PROBLEM_TYPE_BASE}run_not_found`],
    }),
    title: z.string(),
    status: z.int().min(400).max(599),
    detail: z.string(),
    code: z.enum(codes).meta({
      description: 'A stable error code (docs/reference/errors.md).',
    }),
    request_id: prefixedString('req_').meta({
      description:
        'The `Request-Id` of the request that produced this problem (`Original-Request-Id` on a replay).',
    }),
    errors: z.array(problemFieldSchema),
  })
  .meta({
    id: 'Problem',
    description: 'An RFC 9457 problem document with a stable `code`.',
  });
