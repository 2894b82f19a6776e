import type { EngineContext } from '../engine-context.js';
import type { WebhookOptions } from './webhook-options.js';

/** What the webhook modules need: the engine's context and the host's webhook options. */
export interface WebhooksContext {
  readonly engine: EngineContext;
  readonly options: WebhookOptions;
  /** Whether endpoint URLs may be loopback (a development server). */
  readonly allowLoopback: boolean;
  /** Endpoints one scope may register. */
  readonly maxEndpoints: number;
}
