import { isProgramrunError } from '@programrun/evidence';
import { ERROR_CATALOGUE, isErrorCode, type ErrorCode } from './error-catalogue.js';
import type { ProblemField } from './http-error.js';

/** RFC 9457 problem details as programrun sends them. */
export interface ProblemDocument {
  readonly type: string;
  readonly title: string;
  readonly status: number;
  readonly detail: string;
  readonly code: ErrorCode;
  readonly request_id: string;
  readonly errors: readonly ProblemField[];
}

/**
 * Base of every problem `type` URI; each code's page documents it.
 *
 * @example
 * ```ts
 * `${PROBLEM_TYPE_BASE}run_not_found`; // 'https://programrun.dev/problems/run_not_found'
 * ```
 */
export const PROBLEM_TYPE_BASE = 'https://programrun.dev/problems/';

/**
 * The problem document for any error: programrun errors keep their code, detail and
 * fields; anything else becomes `internal_error` without leaking its message.
 *
 * @example
 * ```ts
 * toProblem(new HttpError('malformed_json', 'Unexpected token'), 'req_123').status; // 400
 * ```
 */
export function toProblem(error: unknown, requestId: string): ProblemDocument {
  const code: ErrorCode =
    isProgramrunError(error) && isErrorCode(error.code) ? error.code : 'internal_error';
  const known = code !== 'internal_error';
  const entry: {
    readonly title: string;
    readonly status: number;
    readonly action: string;
    readonly hint?: string;
  } = ERROR_CATALOGUE[code];
  return {
    type: `${PROBLEM_TYPE_BASE}${code}`,
    title: entry.title,
    status: entry.status,
    // Engine messages name engine calls; a hint says how to do the same over HTTP.
    detail: known
      ? `${(error as Error).message}${entry.hint ? ` ${entry.hint}` : ''}`
      : `${entry.title}. ${entry.action}`,
    code,
    request_id: requestId,
    errors: known
      ? fieldsOf(error).map((field) => ({
          pointer: field.pointer,
          code: field.code,
          message: field.message,
        }))
      : [],
  };
}

/** Field problems carried by an error: `errors` (HTTP) or `issues` (engine). */
function fieldsOf(error: unknown): readonly ProblemField[] {
  const holder = error as { errors?: unknown; issues?: unknown };
  const fields = holder.errors ?? holder.issues;
  return Array.isArray(fields) ? (fields as ProblemField[]) : [];
}
