export { createHandler } from './handler.js';
export type { ApiHandler, Handler, HandlerOptions } from './handler.js';
export { DEFAULT_STREAM_POLICY } from './streams/stream-policy.js';
export type { StreamPolicy } from './streams/stream-policy.js';
export { firstMatching } from './first-matching.js';
export { consoleAccessLog, consoleErrorLog } from './logging/request-log.js';
export type {
  AccessLogEntry,
  AccessLogger,
  ErrorLogEntry,
  ErrorLogger,
  RequestLogger,
} from './logging/request-log.js';
export {
  createKeyStoreAuthenticator,
  bearerToken,
  presentedBearerCredentials,
} from './auth/api-key-authenticator.js';
export { authorizeApprovalByScopes } from './auth/authorize-approval.js';
export type { AuthorizeApproval, ApprovalStepView } from './auth/authorize-approval.js';
export { adapterClientAddress } from './client-address.js';
export { createTokenBucketLimiter, DEFAULT_RATE_LIMIT } from './rate-limit/token-bucket.js';
export { DEFAULT_FAILED_AUTHENTICATION_LIMIT } from './rate-limit/failed-authentications.js';
export type { RateLimiter, RateLimitPolicy, RateLimitDecision } from './rate-limit/token-bucket.js';
export type { Authenticate, AuthenticatedCaller, Principal } from './auth/principal.js';
export { ERROR_CATALOGUE, isErrorCode } from './errors/error-catalogue.js';
export type { ErrorCode, ErrorCatalogueEntry, HttpErrorCode } from './errors/error-catalogue.js';
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
export { buildOpenApiDocument } from './routes/all-routes.js';
export type { OpenApiDocument } from './openapi/build-openapi-document.js';
export { OPENAPI_MEDIA_TYPE } from './routes/openapi.js';
export { programRunSchema, programRunListSchema, runStatusSchema } from './schemas/program-run.js';
export { partnerStatusSchema, partnerStatusListSchema } from './schemas/partner-status.js';
export {
  scenarioVersionUsageSchema,
  scenarioVersionUsageListSchema,
} from './schemas/scenario-version-usage.js';
export { lifecycleRecordSchema, lifecycleRecordListSchema } from './schemas/lifecycle-record.js';
export { scenarioSchema, scenarioListSchema } from './schemas/scenario.js';
export { accessRequestRecordSchema } from './schemas/access-request.js';
export { evidenceEnvelopeSchema, evidenceKeySchema, jwksSchema } from './schemas/evidence.js';
export { testClockSchema, testClockStateSchema } from './schemas/test-clock.js';
export { principalSchema } from './schemas/principal.js';
export { healthSchema, readinessSchema, readinessChecksSchema } from './schemas/health.js';
export { problemSchema, problemFieldSchema } from './schemas/problem.js';
export { openApiDocumentSchema } from './schemas/openapi-document.js';
