import { createAccounts, isAuthScope, scopeProblem, type ApiKeyRecord } from '@programrun/engine';
import { actorOption, listOption, parseOptions, requireOption } from '../parse-options.js';
import type { OpenedStore, StoreOpener } from '../store/open-store.js';
import { UsageError } from '../usage-error.js';
import type { Output } from './verify.js';

export const KEYS_USAGE = `usage:
  programrun keys create --account <id> --env test|live [--actor <name>] [--scope <scope>]…
                         [--description <text>] [--json]
  programrun keys list   --account <id> [--env test|live] [--json]
  programrun keys revoke --account <id> <key_id> [--json]`;

const environmentOf = (value: unknown): 'test' | 'live' => {
  if (value !== 'test' && value !== 'live') throw new UsageError('--env must be test or live');
  return value;
};

function requireDurable(opened: OpenedStore, action: string): void {
  if (!opened.durable) {
    throw new UsageError(
      `keys ${action} needs a durable store shared with your server; PROGRAMRUN_STORE=memory forgets every key when a command exits`,
    );
  }
}

/** The `--scope` options, each checked; none means every scope. */
function scopesOf(values: readonly string[]): string[] | undefined {
  for (const value of values) {
    if (!isAuthScope(value)) throw new UsageError(`--scope: ${scopeProblem(value)}`);
  }
  return values.length === 0 ? undefined : [...values];
}

const row = (key: ApiKeyRecord): string =>
  [
    key.id.padEnd(30),
    (key.livemode ? 'live' : 'test').padEnd(5),
    key.redacted.padEnd(16),
    key.status.padEnd(8),
    key.created_at,
    key.actor,
    key.scopes.join(','),
    key.description ?? '',
  ]
    .join(' ')
    .trimEnd();

/**
 * `programrun keys create|list|revoke`: the account's API keys in the store
 * `PROGRAMRUN_STORE` names. A created key is printed once; the store keeps its digest.
 * `--actor` names who acts with it (approvals count distinct actors) and each `--scope`
 * grants one scope (every scope when none is given).
 *
 * @example
 * ```ts
 * await keysCommand(['create', '--account', 'acct_demo', '--env', 'test', '--actor', 'ops:alice', '--scope', 'approvals:decide'], output, openStore);
 * ```
 */
export async function keysCommand(
  argv: readonly string[],
  output: Output,
  openStore: StoreOpener,
): Promise<void> {
  const [action, ...rest] = argv;
  const { values, positionals } = parseOptions(rest, {
    account: { type: 'string' },
    env: { type: 'string' },
    description: { type: 'string' },
    actor: { type: 'string' },
    scope: { type: 'string', multiple: true },
    json: { type: 'boolean' },
  });
  const json = values.json === true;
  if (action !== 'create' && action !== 'list' && action !== 'revoke')
    throw new UsageError(KEYS_USAGE);
  const account = requireOption(values, 'account');
  const opened = await openStore();
  const { apiKeys } = createAccounts({ store: opened.store });
  try {
    switch (action) {
      case 'create': {
        if (positionals.length > 0) throw new UsageError(`unexpected argument ${positionals[0]!}`);
        const environment = environmentOf(values.env);
        const description = typeof values.description === 'string' ? values.description : null;
        const actor = actorOption(values);
        const scopes = scopesOf(listOption(values, 'scope'));
        const { apiKey, secret } = await apiKeys.create({
          account,
          environment,
          description,
          ...(actor === undefined ? {} : { actor }),
          ...(scopes === undefined ? {} : { scopes }),
        });
        if (json) output.out(JSON.stringify({ api_key: apiKey, secret }, null, 2));
        else {
          output.out(
            `Created ${apiKey.id} for ${account} (${environment}), actor ${apiKey.actor}, scopes ${apiKey.scopes.join(' ')}:`,
          );
          output.out(secret);
          output.out('Copy it now: it is shown only this once; programrun keeps only its digest.');
        }
        if (!opened.durable) {
          output.err(
            'note: PROGRAMRUN_STORE=memory keeps nothing after this command; give the key to a server that seeds it (PROGRAMRUN_TEST_KEY for the reference server) or use a durable store',
          );
        }
        return;
      }
      case 'list': {
        requireDurable(opened, 'list');
        if (positionals.length > 0) throw new UsageError(`unexpected argument ${positionals[0]!}`);
        const keys = await apiKeys.list(
          account,
          values.env === undefined ? {} : { environment: environmentOf(values.env) },
        );
        if (json) output.out(JSON.stringify({ object: 'list', data: keys }, null, 2));
        else if (keys.length === 0) output.out(`No API keys in ${account}.`);
        else for (const key of keys) output.out(row(key));
        return;
      }
      case 'revoke': {
        requireDurable(opened, 'revoke');
        if (positionals.length !== 1)
          throw new UsageError('usage: programrun keys revoke --account <id> <key_id>');
        const revoked = await apiKeys.revoke(account, positionals[0]!);
        if (json) output.out(JSON.stringify(revoked, null, 2));
        else
          output.out(`Revoked ${revoked.id} (${revoked.redacted}) at ${revoked.revoked_at ?? ''}.`);
        return;
      }
    }
  } finally {
    await opened.close();
  }
}
