// The demo account's test key on a database several hosts share: the first host to start
// registers it, the others (and later restarts) find it already there.
import type { ApiKeys } from '@programrun/engine';

/** The account the example's test key belongs to. */
export const DEMO_ACCOUNT = 'acct_demo';

/**
 * Makes sure `secret` is an active test key of {@link DEMO_ACCOUNT} (`apiKeys.register`
 * registers it once, whichever host starts first); without `secret`, creates a new key.
 * Returns the key. Throws when the key exists but is revoked or belongs to another account.
 *
 * @example
 * ```ts
 * const key = await seedTestKey(accounts.apiKeys, process.env.PROGRAMRUN_TEST_KEY);
 * ```
 */
export async function seedTestKey(apiKeys: ApiKeys, secret: string | undefined): Promise<string> {
  const input = {
    account: DEMO_ACCOUNT,
    environment: 'test',
    description: 'postgres-cluster example',
  } as const;
  if (secret === undefined) return (await apiKeys.create(input)).secret;
  await apiKeys.register({ ...input, secret });
  return secret;
}
