// The signals that take a live wallet delivery from its screening to its transfer.
import { partnerIdempotencyKey, type HandoffSignal } from '@programrun/engine';
export { RELEASE, WALLET_LIVE_INPUTS } from '../../../webhooks/test/handoff-chaos.js';

/** A partner's confirmed answer to the first attempt of a handoff of `runId`. */
export function walletAnswer(
  runId: string,
  step: 'screen_destination' | 'transfer_to_wallet',
): HandoffSignal {
  return {
    kind: 'handoff',
    step,
    outcome: 'confirmed',
    reference: `ref_${step}`,
    // The screening gate reads the risk the chain-analytics provider found.
    data: step === 'screen_destination' ? { risk: 'low' } : {},
    idempotency_key: partnerIdempotencyKey(runId, step, 1),
  };
}
