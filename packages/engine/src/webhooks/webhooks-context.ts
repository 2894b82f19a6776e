import type { EngineContext } from '../engine-context.js';
import type { EndpointLimits } from './endpoint-limits.js';
import type { WebhookSecretBox } from './secret-box.js';
import type { WebhookOptions } from './webhook-options.js';

/** What the webhook modules need: the engine's context and the host's webhook options. */
export interface WebhooksContext {
  readonly engine: EngineContext;
  readonly options: WebhookOptions;
  /** Whether endpoint URLs may be loopback (a development server). */
  readonly allowLoopback: boolean;
  /** Seals signing secrets at rest (when the host configured a key) and opens them to sign. */
  readonly secretBox: WebhookSecretBox;
  /** Endpoints one scope may register, in all and on one receiver URL. */
  readonly limits: EndpointLimits;
}
