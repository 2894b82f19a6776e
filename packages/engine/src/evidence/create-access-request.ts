import type { EngineContext } from '../engine-context.js';
import type { Scope } from '../store/store-v1.js';
import {
  assertAccessRequest,
  toAccessRequestRecord,
  type AccessRequestInput,
  type AccessRequestRecord,
} from './access-requests.js';

/**
 * Links a request-access lead to a session; the same session again returns the first.
 */
export function createAccessRequest(
  context: EngineContext,
  scope: Scope,
  input: AccessRequestInput,
): Promise<{ readonly accessRequest: AccessRequestRecord; readonly created: boolean }> {
  assertAccessRequest(input);
  return context.transactions.run(async ({ tx }) => {
    const existing = await tx.getAccessRequestBySession(scope, input.session_id);
    if (existing) return { accessRequest: toAccessRequestRecord(existing), created: false };
    const row = {
      id: context.ids.accessRequest(),
      account: scope.account,
      environment: scope.environment,
      session_id: input.session_id,
      name: input.name,
      email: input.email,
      company: input.company,
      use_case: input.use_case,
      created_at: (await context.clocks.now(tx, scope)).toISOString(),
    };
    await tx.insertAccessRequest(row);
    return { accessRequest: toAccessRequestRecord(row), created: true };
  });
}
