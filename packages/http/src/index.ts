export { createHandler } from './handler.js';
export type { Handler, HandlerOptions } from './handler.js';
export { createApiKeyAuthenticator, environmentOfKey } from './auth/api-key-authenticator.js';
export type { ApiKeyEntry } from './auth/api-key-authenticator.js';
export type { Authenticate, Principal } from './auth/principal.js';
export { ERROR_CATALOGUE, isErrorCode } from './errors/error-catalogue.js';
export type { ErrorCode } from './errors/error-catalogue.js';
export { HttpError } from './errors/http-error.js';
export type { ProblemField } from './errors/http-error.js';
export { toProblem, PROBLEM_TYPE_BASE } from './errors/problem-response.js';
export type { ProblemDocument } from './errors/problem-response.js';
export type { IdempotencyPolicy } from './idempotency/idempotency.js';
export { DEFAULT_MAX_BODY_BYTES } from './request-body.js';
export {
  createRunBodySchema,
  approvalBodySchema,
  handoffBodySchema,
  cancelBodySchema,
  clockAdvanceBodySchema,
  accessRequestBodySchema,
} from './request-schemas.js';
