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
}
