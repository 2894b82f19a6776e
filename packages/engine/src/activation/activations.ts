import { assertAccountId } from '../accounts/account-id.js';
import type { EngineContext } from '../engine-context.js';
import { EngineError } from '../errors.js';
import { commitTransition } from '../kernel/commit-transition.js';
import { isStarted, loadRun, scenarioOfRun } from '../kernel/load-run.js';
import { transitionMetrics } from '../kernel/transition-metrics.js';
import type { ActivationPosture } from '../runs/run-record.js';
import type { Scope } from '../store/store-v1.js';
import {
  activationPosture,
  assertActivation,
  assertRestrictedScenario,
  toActivationRecord,
  type ActivateIssuerInput,
  type ActivationResult,
  type IssuerActivationRecord,
} from './issuer-activations.js';

/** Issuer activations of restricted scenarios, per account (live environment). */
export interface IssuerActivations {
  /**
   * Activates a restricted scenario (by name, every version) for an account and starts
   * its live runs waiting `suspended` in intake. Activating again is harmless: it keeps
   * the first activation and starts any run still suspended.
   */
  activate(account: string, input: ActivateIssuerInput): Promise<ActivationResult>;
  /** Ends an activation: new live runs wait `suspended` again; started runs go on. */
  revoke(account: string, scenario: string): Promise<IssuerActivationRecord>;
  /** The account's activations, by scenario name. */
  list(account: string): Promise<IssuerActivationRecord[]>;
}

/**
 * Starts the machine of a run suspended in intake (its account now has the issuer
 * activation). False when the run is no longer suspended.
 */
function startSuspendedRun(
  context: EngineContext,
  scope: Scope,
  runId: string,
  activation: ActivationPosture,
): Promise<boolean> {
  return context.transactions.run(async (transaction) => {
    const run = await loadRun(transaction.tx, scope, runId);
    if (isStarted(run) || run.status !== 'suspended') return false;
    const compiled = scenarioOfRun(context.catalogue, run);
    const now = await context.clocks.now(transaction.tx, scope);
    await commitTransition({
      transaction,
      compiled,
      scope,
      runId,
      now,
      result: compiled.start({ environment: scope.environment, inputs: run.record.inputs }),
      previous: run,
      sandbox: context.sandbox,
      handoffs: context.handoffs,
      deliveries: context.deliveries,
      activation,
      leadingFacts: [
        {
          type: 'resumed',
          stage: null,
          step: null,
          data: { reason: 'issuer_activation', reference: activation.reference },
        },
      ],
      // An issuer activation is the operator's signal to the run.
      kind: 'signal',
      metrics: transitionMetrics(context),
    });
    return true;
  });
}

/** Starts every live run of the account's scenario (any version) suspended for activation. */
async function resumeSuspendedRuns(
  context: EngineContext,
  account: string,
  scenario: string,
  activation: ActivationPosture,
): Promise<string[]> {
  const scope: Scope = { account, environment: 'live' };
  const resumed: string[] = [];
  for (const compiled of context.catalogue.list()) {
    if (compiled.definition.scenario !== scenario) continue;
    // Started runs leave the `suspended` list, so the first page is always the next one.
    for (;;) {
      const page = await context.transactions.run(({ tx }) =>
        tx.listRuns(scope, { status: 'suspended', scenario_id: compiled.id, limit: 100 }),
      );
      let progressed = false;
      for (const run of page.data) {
        if (await startSuspendedRun(context, scope, run.id, activation)) {
          resumed.push(run.id);
          progressed = true;
        }
      }
      if (!page.has_more || !progressed) break;
    }
  }
  return resumed;
}

/**
 * The issuer activations of an engine.
 */
export function createIssuerActivations(context: EngineContext): IssuerActivations {
  const { catalogue, transactions, clocks } = context;
  return {
    async activate(account, input) {
      assertAccountId(account);
      const scenario = assertActivation(catalogue, input);
      const row = await transactions.run(async ({ tx }) => {
        const existing = await tx.lockIssuerActivation(account, scenario);
        if (existing?.status === 'active') return existing;
        const activated = {
          account,
          scenario,
          status: 'active' as const,
          reference: input.reference.trim(),
          activated_at: clocks.live().toISOString(),
          revoked_at: null,
        };
        await tx.putIssuerActivation(activated);
        return activated;
      });
      const resumed = await resumeSuspendedRuns(context, account, scenario, activationPosture(row));
      return { activation: toActivationRecord(row), resumed_runs: resumed };
    },

    async revoke(account, scenario) {
      assertAccountId(account);
      const name = assertRestrictedScenario(catalogue, scenario);
      return transactions.run(async ({ tx }) => {
        const existing = await tx.lockIssuerActivation(account, name);
        if (!existing) {
          throw new EngineError(
            'activation_not_found',
            `Account ${account} has no issuer activation for ${name}.`,
          );
        }
        if (existing.status === 'revoked') return toActivationRecord(existing);
        const revoked = {
          ...existing,
          status: 'revoked' as const,
          revoked_at: clocks.live().toISOString(),
        };
        await tx.putIssuerActivation(revoked);
        return toActivationRecord(revoked);
      });
    },

    async list(account) {
      assertAccountId(account);
      const rows = await transactions.run(({ tx }) => tx.listIssuerActivations(account));
      return rows.map(toActivationRecord);
    },
  };
}
