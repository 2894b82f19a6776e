import { ProgramrunError } from '@programrun/evidence';
import type { ErrorCode } from './error-catalogue.js';

/** A field problem as problem+json reports it: a JSON pointer into the request. */
export interface ProblemField {
  readonly pointer: string;
  readonly code: string;
  readonly message: string;
}

/**
 * An error to answer as problem+json; its status comes from the error catalogue.
 *
 * @example
 * ```ts
 * throw new HttpError('idempotency_key_missing', 'POST /v1/program-runs needs an Idempotency-Key header.');
 * ```
 */
export class HttpError extends ProgramrunError {
  declare readonly code: ErrorCode;
  readonly errors: readonly ProblemField[];
  readonly headers: Readonly<Record<string, string>>;

  constructor(
    code: ErrorCode,
    detail: string,
    options: { errors?: readonly ProblemField[]; headers?: Record<string, string> } = {},
  ) {
    super(code, detail);
    this.errors = options.errors ?? [];
    this.headers = options.headers ?? {};
  }
}
