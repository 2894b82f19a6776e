import { createEngine, type IssuerActivationRecord } from '@programrun/engine';
import { parseOptions, requireOption } from '../parse-options.js';
import type { StoreOpener } from '../store/open-store.js';
import { UsageError } from '../usage-error.js';
import type { Output } from './verify.js';
import { catalogueOf } from '../scenarios/scenario-files.js';

export const ACTIVATIONS_USAGE = `usage:
  programrun activations activate --account <id> --scenario <name> --reference <ref> [--scenarios <dir>] [--json]
  programrun activations list     --account <id> [--json]
  programrun activations revoke   --account <id> --scenario <name> [--scenarios <dir>] [--json]`;

const row = (activation: IssuerActivationRecord): string =>
  [
    activation.scenario.padEnd(28),
    activation.status.padEnd(8),
    activation.reference.padEnd(20),
    activation.activated_at,
    activation.revoked_at ?? '',
  ]
    .join(' ')
    .trimEnd();

/**
 * `programrun activations activate|list|revoke`: issuer activations that let an account's
 * live runs of a restricted scenario leave intake. Activating starts the account's runs
 * waiting `suspended`. Works on the store `PROGRAMRUN_STORE` names, which must be the
 * durable store your server uses.
 *
 * @example
 * ```ts
 * await activationsCommand(['activate', '--account', 'acct_demo', '--scenario', 'reserve-usd-cycle', '--reference', 'ISS-42'], output, openStore, process.env);
 * ```
 */
export async function activationsCommand(
  argv: readonly string[],
  output: Output,
  openStore: StoreOpener,
  environment: Readonly<Record<string, string | undefined>>,
): Promise<void> {
  const [action, ...rest] = argv;
  const { values, positionals } = parseOptions(rest, {
    account: { type: 'string' },
    scenario: { type: 'string' },
    reference: { type: 'string' },
    scenarios: { type: 'string' },
    json: { type: 'boolean' },
  });
  if (action !== 'activate' && action !== 'list' && action !== 'revoke')
    throw new UsageError(ACTIVATIONS_USAGE);
  if (positionals.length > 0) throw new UsageError(`unexpected argument ${positionals[0]!}`);
  const account = requireOption(values, 'account');
  const json = values.json === true;
  const directory =
    (typeof values.scenarios === 'string' ? values.scenarios : undefined) ??
    environment.PROGRAMRUN_SCENARIOS ??
    'scenarios';
  const scenarios = action === 'list' ? [] : await catalogueOf(directory, '--scenarios');
  const opened = await openStore();
  try {
    if (!opened.durable) {
      throw new UsageError(
        `activations ${action} needs the durable store your server uses; PROGRAMRUN_STORE=memory holds no runs or activations between commands`,
      );
    }
    const engine = createEngine({ store: opened.store, scenarios });
    switch (action) {
      case 'activate': {
        const result = await engine.activations.activate(account, {
          scenario: requireOption(values, 'scenario'),
          reference: requireOption(values, 'reference'),
        });
        if (json) output.out(JSON.stringify(result, null, 2));
        else {
          output.out(
            `Activated ${result.activation.scenario} for ${account} (reference ${result.activation.reference}).`,
          );
          output.out(
            result.resumed_runs.length === 0
              ? 'No live run was waiting.'
              : `Started ${result.resumed_runs.length} suspended run(s): ${result.resumed_runs.join(', ')}`,
          );
        }
        return;
      }
      case 'list': {
        const activations = await engine.activations.list(account);
        if (json) output.out(JSON.stringify({ object: 'list', data: activations }, null, 2));
        else if (activations.length === 0) output.out(`No issuer activations in ${account}.`);
        else for (const activation of activations) output.out(row(activation));
        return;
      }
      case 'revoke': {
        const revoked = await engine.activations.revoke(account, requireOption(values, 'scenario'));
        if (json) output.out(JSON.stringify(revoked, null, 2));
        else
          output.out(
            `Revoked the ${revoked.scenario} activation of ${account}; new live runs wait suspended again.`,
          );
        return;
      }
    }
  } finally {
    await opened.close();
  }
}
