import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { sha256Digest } from '@programrun/evidence';
import {
  API_KEY_LENGTH,
  apiKeyChecksum,
  createApiKeys,
  createAccounts,
  createMemoryStore,
  createVirtualClock,
  DEFAULT_API_KEY_SCOPES,
  formatApiKey,
  generateApiKey,
  parseApiKey,
  seededIds,
  systemClock,
  type Accounts,
  type StoreV1,
} from '../src/index.js';
import { expectEngineError } from './expect-engine-error.js';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

function newEngine(): { engine: Accounts; store: StoreV1 } {
  const store = createMemoryStore();
  return { engine: createAccounts({ store, ids: seededIds('keys') }), store };
}

describe('API key format', () => {
  it('is the environment prefix, 32 random base62 characters and a 6-character CRC32 checksum', () => {
    const key = generateApiKey('test');
    expect(key).toMatch(/^pr_test_[0-9A-Za-z]{38}$/);
    expect(key).toHaveLength(API_KEY_LENGTH);
    expect(parseApiKey(key)).toEqual({
      prefix: 'pr_test_',
      environment: 'test',
      random: key.slice(8, 40),
      checksum: key.slice(40),
    });
    expect(parseApiKey(generateApiKey('live'))?.environment).toBe('live');
  });

  it('computes the checksum as CRC-32 of prefix and random part, in 6 base62 digits', () => {
    const decode = (digits: string) =>
      [...digits].reduce((value, char) => value * 62 + BASE62.indexOf(char), 0);
    // The CRC-32 check value: CRC-32 of "123456789" is 0xCBF43926.
    expect(decode(apiKeyChecksum('1234', '56789'))).toBe(0xcbf43926);
    expect(apiKeyChecksum('1234', '56789')).toHaveLength(6);
    const random = '0'.repeat(32);
    expect(apiKeyChecksum('pr_test_', random)).not.toBe(apiKeyChecksum('pr_live_', random));
  });

  it('rejects every single-character substitution of a valid key (the checksum catches typos and forgeries)', () => {
    fc.assert(
      fc.property(
        fc.constantFrom<'test' | 'live'>('test', 'live'),
        fc.nat({ max: 37 }),
        fc.integer({ min: 1, max: 61 }),
        (environment, position, shift) => {
          const key = generateApiKey(environment);
          const index = 8 + position;
          const replaced = BASE62[(BASE62.indexOf(key[index]!) + shift) % 62]!;
          const mutated = `${key.slice(0, index)}${replaced}${key.slice(index + 1)}`;
          expect(parseApiKey(mutated)).toBeNull();
        },
      ),
      { numRuns: 500 },
    );
  });

  it('formats a key from a given random part, and only from 32 base62 characters', () => {
    const key = formatApiKey('live', 'A'.repeat(32));
    expect(parseApiKey(key)).toMatchObject({ environment: 'live', random: 'A'.repeat(32) });
    expect(() => formatApiKey('test', 'short')).toThrow(RangeError);
    expect(() => formatApiKey('test', `${'A'.repeat(31)}-`)).toThrow(RangeError);
  });

  it('rejects the wrong prefix, length or alphabet', () => {
    const key = generateApiKey('test');
    for (const bad of [
      key.replace('pr_test_', 'pr_live_'),
      key.replace('pr_test_', 'sk_test_'),
      key.slice(0, -1),
      `${key}0`,
      `${key.slice(0, 20)}-${key.slice(21)}`,
      '',
      'pr_test_',
    ]) {
      expect(parseApiKey(bad), bad).toBeNull();
    }
  });
});

describe('accounts.apiKeys', () => {
  it('creates a key shown once, lists it by prefix and last four only, and authenticates it', async () => {
    const { engine, store } = newEngine();
    const { apiKey, secret } = await engine.apiKeys.create({
      account: 'acct_demo',
      environment: 'test',
      description: 'ci pipeline',
    });
    expect(parseApiKey(secret)?.environment).toBe('test');
    expect(apiKey).toEqual({
      object: 'api_key',
      id: expect.stringMatching(/^key_/) as unknown,
      account: 'acct_demo',
      livemode: false,
      redacted: `pr_test_…${secret.slice(-4)}`,
      last4: secret.slice(-4),
      description: 'ci pipeline',
      // Without an actor or scopes: the key's id, and every scope (as keys had before scopes).
      actor: apiKey.id,
      scopes: [...DEFAULT_API_KEY_SCOPES],
      status: 'active',
      created_at: expect.any(String) as unknown,
      revoked_at: null,
    });
    expect(JSON.stringify(await engine.apiKeys.list('acct_demo'))).not.toContain(
      secret.slice(8, 40),
    );
    // The store holds the digest only.
    const rows = await store.transaction((tx) => tx.listApiKeys('acct_demo'));
    expect(JSON.stringify(rows)).not.toContain(secret.slice(8, 40));
    expect(rows[0]!.secret_hash).toBe(sha256Digest(secret));
    expect(await engine.apiKeys.authenticate(secret)).toEqual({
      account: 'acct_demo',
      environment: 'test',
      keyId: apiKey.id,
      actor: apiKey.id,
      scopes: [...DEFAULT_API_KEY_SCOPES],
    });
  });

  it('creates a key with an actor and scopes (normalized), and authenticates with them', async () => {
    const { engine } = newEngine();
    const { apiKey, secret } = await engine.apiKeys.create({
      account: 'acct_demo',
      environment: 'live',
      actor: 'partner:payout_bank',
      scopes: ['handoffs:answer:payout_bank', 'runs:read', 'handoffs:answer:payout_bank'],
    });
    expect(apiKey).toMatchObject({
      actor: 'partner:payout_bank',
      scopes: ['runs:read', 'handoffs:answer:payout_bank'],
    });
    expect(await engine.apiKeys.authenticate(secret)).toMatchObject({
      actor: 'partner:payout_bank',
      scopes: ['runs:read', 'handoffs:answer:payout_bank'],
    });
    expect((await engine.apiKeys.list('acct_demo'))[0]).toMatchObject({
      actor: 'partner:payout_bank',
      scopes: ['runs:read', 'handoffs:answer:payout_bank'],
    });
  });

  it('refuses unknown scopes, an empty scope list and malformed actors', async () => {
    const { engine } = newEngine();
    const create = (input: { actor?: string; scopes?: string[] }) =>
      engine.apiKeys.create({ account: 'acct_demo', environment: 'test', ...input });
    for (const scopes of [
      ['runs:delete'],
      ['runs:read:payout_bank'],
      ['handoffs:answer:'],
      ['handoffs:answer:Payout-Bank'],
      ['approvals:decide:payments_ops:extra'],
      [],
    ]) {
      await expectEngineError(create({ scopes }), 'invalid_api_key_request');
    }
    for (const actor of ['', ' ops:alice', 'ops:alice ', 'ops\nalice', 'x'.repeat(129)]) {
      await expectEngineError(create({ actor }), 'invalid_api_key_request');
    }
    expect(await engine.apiKeys.list('acct_demo')).toEqual([]);
  });

  it('refuses unknown, malformed and revoked keys alike', async () => {
    const { engine } = newEngine();
    const { apiKey, secret } = await engine.apiKeys.create({
      account: 'acct_demo',
      environment: 'live',
    });
    expect(await engine.apiKeys.authenticate(generateApiKey('live'))).toBeNull();
    expect(await engine.apiKeys.authenticate('pr_live_nope')).toBeNull();
    expect(await engine.apiKeys.authenticate(secret.toUpperCase())).toBeNull();
    const revoked = await engine.apiKeys.revoke('acct_demo', apiKey.id);
    expect(revoked).toMatchObject({ status: 'revoked', revoked_at: expect.any(String) as unknown });
    expect(await engine.apiKeys.authenticate(secret)).toBeNull();
    // Revoking again changes nothing; another account cannot see or revoke the key.
    expect(await engine.apiKeys.revoke('acct_demo', apiKey.id)).toEqual(revoked);
    await expectEngineError(engine.apiKeys.revoke('acct_other', apiKey.id), 'api_key_not_found');
    expect(await engine.apiKeys.list('acct_other')).toEqual([]);
  });

  it('registers a configured key (seeding) only when it is well formed for its environment', async () => {
    const { engine } = newEngine();
    const secret = generateApiKey('test');
    await engine.apiKeys.create({ account: 'acct_demo', environment: 'test', secret });
    expect((await engine.apiKeys.authenticate(secret))?.account).toBe('acct_demo');
    await expectEngineError(
      engine.apiKeys.create({ account: 'acct_demo', environment: 'test', secret }),
      'invalid_api_key_request',
    );
    await expectEngineError(
      engine.apiKeys.create({
        account: 'acct_demo',
        environment: 'live',
        secret: generateApiKey('test'),
      }),
      'invalid_api_key_request',
    );
    await expectEngineError(
      engine.apiKeys.create({ account: 'acct_demo', environment: 'test', secret: 'pr_test_123' }),
      'invalid_api_key_request',
    );
    await expectEngineError(
      engine.apiKeys.create({ account: '', environment: 'test' }),
      'invalid_account',
    );
    await expectEngineError(
      engine.apiKeys.create({
        account: 'acct_demo',
        environment: 'test',
        description: 'x'.repeat(201),
      }),
      'invalid_api_key_request',
    );
  });

  it('registers a configured key once across restarts and racing hosts, never for another owner', async () => {
    const { engine, store } = newEngine();
    const secret = generateApiKey('test');
    const input = { account: 'acct_demo', environment: 'test' as const, secret };
    // Several hosts starting at once on one store: one registers, the others find it.
    const results = await Promise.all([1, 2, 3, 4].map(() => engine.apiKeys.register(input)));
    expect(results.filter((result) => result.created)).toHaveLength(1);
    expect(new Set(results.map((result) => result.apiKey.id)).size).toBe(1);
    expect(await store.transaction((tx) => tx.listApiKeys('acct_demo'))).toHaveLength(1);
    // A restart finds it.
    expect((await engine.apiKeys.register(input)).created).toBe(false);
    await expectEngineError(
      engine.apiKeys.register({ ...input, account: 'acct_other' }),
      'invalid_api_key_request',
    );
    await engine.apiKeys.revoke('acct_demo', results[0]!.apiKey.id);
    const revoked = await expectEngineError(
      engine.apiKeys.register(input),
      'invalid_api_key_request',
    );
    expect(revoked.message).toMatch(/revoked/);
  });

  it('lists an account’s keys oldest first, filtered by environment', async () => {
    const clock = createVirtualClock('2026-05-01T00:00:00.000Z');
    const engine = createAccounts({ store: createMemoryStore(), clock });
    const first = await engine.apiKeys.create({ account: 'acct_demo', environment: 'test' });
    clock.advanceTo(new Date('2026-05-01T00:00:01.000Z'));
    const second = await engine.apiKeys.create({ account: 'acct_demo', environment: 'live' });
    await engine.apiKeys.create({ account: 'acct_other', environment: 'test' });
    expect((await engine.apiKeys.list('acct_demo')).map((key) => key.id)).toEqual([
      first.apiKey.id,
      second.apiKey.id,
    ]);
    expect(
      (await engine.apiKeys.list('acct_demo', { environment: 'live' })).map((key) => key.id),
    ).toEqual([second.apiKey.id]);
  });
});

describe('authentication cache', () => {
  /** A memory store that counts key lookups, and API keys over it on a hand-moved clock. */
  function countedKeys(cacheMs: number) {
    const inner = createMemoryStore();
    let lookups = 0;
    const store: StoreV1 = {
      ...inner,
      transaction: (work) =>
        inner.transaction((tx) =>
          work(
            new Proxy(tx, {
              get(target, property) {
                if (property === 'findApiKeyByHash') lookups += 1;
                const value = Reflect.get(target, property) as unknown;
                return typeof value === 'function' ? (value.bind(target) as unknown) : value;
              },
            }),
          ),
        ),
    };
    let now = 0;
    const options = { store, clock: systemClock, ids: seededIds('cache'), cacheMs };
    return {
      keys: createApiKeys({ ...options, monotonicNow: () => now }),
      otherHost: createApiKeys({ ...options, monotonicNow: () => now }),
      lookups: () => lookups,
      advance: (ms: number) => (now += ms),
    };
  }

  it('reuses a successful authentication for cacheMs without reading the store', async () => {
    const { keys, lookups, advance } = countedKeys(5_000);
    const { secret } = await keys.create({ account: 'acct_demo', environment: 'test' });
    const first = await keys.authenticate(secret);
    expect(lookups()).toBe(1);
    advance(4_999);
    expect(await keys.authenticate(secret)).toEqual(first);
    expect(lookups()).toBe(1);
    advance(1);
    expect(await keys.authenticate(secret)).toEqual(first);
    expect(lookups()).toBe(2);
  });

  it('never caches a refusal: an unknown key reads the store every time', async () => {
    const { keys, lookups } = countedKeys(5_000);
    const unknown = generateApiKey('test');
    expect(await keys.authenticate(unknown)).toBeNull();
    expect(await keys.authenticate(unknown)).toBeNull();
    expect(lookups()).toBe(2);
  });

  it('refuses a key revoked on this host at once; another host within cacheMs', async () => {
    const { keys, otherHost, advance } = countedKeys(5_000);
    const { apiKey, secret } = await keys.create({ account: 'acct_demo', environment: 'test' });
    await keys.authenticate(secret);
    await otherHost.authenticate(secret);
    await keys.revoke('acct_demo', apiKey.id);
    expect(await keys.authenticate(secret)).toBeNull();
    // The other host still holds its cached answer until the time is up.
    expect(await otherHost.authenticate(secret)).not.toBeNull();
    advance(5_000);
    expect(await otherHost.authenticate(secret)).toBeNull();
  });

  it('with cacheMs 0 reads the store on every request', async () => {
    const { keys, otherHost, lookups } = countedKeys(0);
    const { apiKey, secret } = await keys.create({ account: 'acct_demo', environment: 'test' });
    await otherHost.authenticate(secret);
    await keys.revoke('acct_demo', apiKey.id);
    expect(await otherHost.authenticate(secret)).toBeNull();
    expect(lookups()).toBe(2);
  });

  it('property: any sequence of authentications and revocations answers like the store would after cacheMs', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.oneof(
            fc.record({ kind: fc.constant('auth' as const), key: fc.nat(2) }),
            fc.record({ kind: fc.constant('revoke' as const), key: fc.nat(2) }),
            fc.record({
              kind: fc.constant('wait' as const),
              ms: fc.integer({ min: 0, max: 3_000 }),
            }),
          ),
          { maxLength: 30 },
        ),
        async (steps) => {
          const { keys, advance } = countedKeys(2_000);
          const created: { apiKey: { id: string }; secret: string }[] = [];
          for (let index = 0; index < 3; index += 1) {
            created.push(await keys.create({ account: 'acct_demo', environment: 'test' }));
          }
          for (const step of steps) {
            if (step.kind === 'wait') advance(step.ms);
            else if (step.kind === 'revoke')
              await keys.revoke('acct_demo', created[step.key]!.apiKey.id);
            else {
              // One host: its own revocations always win over its cache.
              const principal = await keys.authenticate(created[step.key]!.secret);
              const listed = await keys.list('acct_demo');
              const active = listed.find((key) => key.id === created[step.key]!.apiKey.id)!.status;
              expect(principal !== null).toBe(active === 'active');
            }
          }
        },
      ),
      { numRuns: 60 },
    );
  });
});
