import type { RetrySchedule } from './retry-schedule.js';

/** How the engine handles webhooks (`createEngine({ webhooks })`). */
export interface WebhookOptions {
  /**
   * Lets endpoints use loopback addresses (`http://127.0.0.1:…`, `localhost`) in any
   * environment: for development and tests only. Private, link-local and metadata
   * addresses stay forbidden. @default false
   */
  readonly allowLoopback?: boolean;
  /** Seconds before each retry, per environment. @default DEFAULT_RETRY_SCHEDULE */
  readonly retrySchedule?: RetrySchedule;
  /** Jitter source in [0, 1). @default Math.random */
  readonly random?: () => number;
  /** Endpoints per account and environment. @default 16 */
  readonly maxEndpoints?: number;
  /**
   * Endpoints of one account and environment on the same receiver URL (origin and path;
   * the query does not count), so a few requests cannot multiply every event into many
   * POSTs to one host. @default 2
   */
  readonly maxEndpointsPerUrl?: number;
  /**
   * Keys that seal webhook signing secrets at rest (AES-256-GCM, bound to the endpoint):
   * 32 bytes of base64 each (`openssl rand -base64 32`). The first seals every secret
   * written; every one opens what it sealed, so list the new key first and keep the old
   * ones until `engine.webhooks.resealSecrets()` has run. Without keys, secrets are
   * stored readable (and endpoints written before keep working once a key is set).
   */
  readonly secretKeys?: readonly string[];
}
