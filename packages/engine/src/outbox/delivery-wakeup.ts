import type { RunEnvironment } from '@programrun/dsl';
import { createCommitWakeup, type CommitWakeup } from '../kernel/commit-wakeup.js';
import type { EnvironmentClocks } from '../time/environment-clocks.js';

/**
 * When queued webhook deliveries fall due, and who is told once they are committed (a
 * dispatcher waiting for work).
 */
export interface DeliveryWakeup extends CommitWakeup {
  /** Now on an environment's base clock (live clock, or the test base clock). */
  dueAt(environment: RunEnvironment): string;
}

/**
 * The wake-up of an engine.
 */
export function createDeliveryWakeup(clocks: EnvironmentClocks): DeliveryWakeup {
  return {
    ...createCommitWakeup(),
    dueAt: (environment) =>
      (environment === 'live' ? clocks.live() : clocks.testBase()).toISOString(),
  };
}
