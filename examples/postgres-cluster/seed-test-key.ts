// The demo account's test key on a database several hosts share: the first host to start
// registers it, the others (and later restarts) find it already there.
import type { ApiKeys } from '@programrun/engine';

/** The account the example's test key belongs to. */
export const DEMO_ACCOUNT = 'acct_demo';

/**
 * Makes sure `secret` is an active test key of {@link DEMO_ACCOUNT}, registering it unless
 * another host (or an earlier start) did; without `secret`, creates a new key. Returns the
 * key. Throws when the key exists but is revoked or belongs to another account.
 *
 * `apiKeys.create` refuses a key that is already registered (`EngineError`
 * `invalid_api_key_request`, "This key is already registered."), and two hosts may race
 * to register it, so the outcome is checked by authenticating the key afterwards.
 *
 * @example
 * ```ts
 * const key = await seedTestKey(engine.apiKeys, process.env.PROGRAMRUN_TEST_KEY);
 * ```
 */
export async function seedTestKey(apiKeys: ApiKeys, secret: string | undefined): Promise<string> {
  if (secret === undefined) {
    const created = await apiKeys.create({
      account: DEMO_ACCOUNT,
      environment: 'test',
      description: 'postgres-cluster example',
    });
    return created.secret;
  }
  const owner = async () => {
    const principal = await apiKeys.authenticate(secret);
    return principal?.account === DEMO_ACCOUNT && principal.environment === 'test';
  };
  if (await owner()) return secret;
  let refusal: unknown;
  try {
    await apiKeys.create({
      account: DEMO_ACCOUNT,
      environment: 'test',
      description: 'postgres-cluster example',
      secret,
    });
  } catch (error) {
    refusal = error; // most likely another host registered it a moment ago
  }
  if (await owner()) return secret;
  const reason = refusal instanceof Error ? ` (${refusal.message})` : '';
  throw new Error(
    `PROGRAMRUN_TEST_KEY is registered in this database but revoked or not a key of ${DEMO_ACCOUNT}${reason}; use another key`,
  );
}
