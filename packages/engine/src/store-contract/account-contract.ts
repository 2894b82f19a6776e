import { expect, it } from 'vitest';
import type { ApiKeyRow, IssuerActivationRow } from '../store/store-v1.js';
import {
  scope,
  otherAccount,
  otherEnvironment,
  expectStoreError,
  contendedLock,
  type WithStore,
} from './fixtures.js';

/**
 * The Store spec v1 contract for access requests, API keys and issuer activations, and that `lockIssuerActivation` holds the pair until COMMIT.
 */
export function defineAccountContract(withStore: WithStore): void {
  it('keeps one access request per session and scope', () =>
    withStore(async (store) => {
      const lead = {
        id: 'lead_1',
        account: scope.account,
        environment: scope.environment,
        session_id: 'sess_1',
        name: 'Ana Lima',
        email: 'ana@example.com',
        company: 'Example Pay',
        use_case: 'Cross-border payouts',
        created_at: '2026-01-01T00:00:00.000Z',
      };
      await store.transaction((tx) => tx.insertAccessRequest(lead));
      await expectStoreError(
        store.transaction((tx) => tx.insertAccessRequest({ ...lead, id: 'lead_2' })),
        'duplicate_key',
      );
      await store.transaction((tx) =>
        tx.insertAccessRequest({ ...lead, id: 'lead_3', account: otherAccount.account }),
      );
      await store.transaction(async (tx) => {
        expect(await tx.getAccessRequestBySession(scope, 'sess_1')).toEqual(lead);
        expect(await tx.getAccessRequestBySession(otherEnvironment, 'sess_1')).toBeUndefined();
        expect(await tx.getAccessRequestBySession(scope, 'sess_2')).toBeUndefined();
      });
    }));
  it('keeps API keys by secret hash, per account, and revokes them', () =>
    withStore(async (store) => {
      const key = (id: string, overrides: Partial<ApiKeyRow> = {}): ApiKeyRow => ({
        id,
        account: 'acct_a',
        environment: 'test',
        secret_hash: `sha256:${id.padStart(64, '0')}`,
        last4: 'x7Qa',
        description: null,
        actor: id,
        scopes: ['runs:read', 'runs:write', 'approvals:decide'],
        created_at: '2026-01-01T00:00:00.000Z',
        revoked_at: null,
        ...overrides,
      });
      await store.transaction(async (tx) => {
        await tx.insertApiKey(key('key_1'));
        await tx.insertApiKey(
          key('key_2', { environment: 'live', created_at: '2026-01-02T00:00:00.000Z' }),
        );
        await tx.insertApiKey(key('key_3', { account: 'acct_b' }));
      });
      await expectStoreError(
        store.transaction((tx) =>
          tx.insertApiKey(key('key_4', { secret_hash: key('key_1').secret_hash })),
        ),
        'duplicate_key',
      );
      await expectStoreError(
        store.transaction((tx) => tx.insertApiKey(key('key_1'))),
        'duplicate_key',
      );
      await store.transaction(async (tx) => {
        expect(await tx.findApiKeyByHash(key('key_3').secret_hash)).toEqual(
          key('key_3', { account: 'acct_b' }),
        );
        expect(await tx.findApiKeyByHash('sha256:unknown')).toBeUndefined();
        expect(await tx.getApiKey('acct_b', 'key_1')).toBeUndefined();
        expect((await tx.listApiKeys('acct_a')).map((row) => row.id)).toEqual(['key_1', 'key_2']);
        await tx.updateApiKey({ ...key('key_1'), revoked_at: '2026-01-03T00:00:00.000Z' });
      });
      await store.transaction(async (tx) => {
        expect((await tx.getApiKey('acct_a', 'key_1'))?.revoked_at).toBe(
          '2026-01-03T00:00:00.000Z',
        );
        expect((await tx.findApiKeyByHash(key('key_1').secret_hash))?.revoked_at).toBe(
          '2026-01-03T00:00:00.000Z',
        );
      });
    }));
  it("keeps an API key's actor and scopes as written, in order, through a revocation", () =>
    withStore(async (store) => {
      const row: ApiKeyRow = {
        id: 'key_scoped',
        account: 'acct_a',
        environment: 'live',
        secret_hash: `sha256:${'5'.repeat(64)}`,
        last4: 'Zz09',
        description: 'payout bank callbacks',
        actor: 'partner:payout_bank',
        scopes: ['runs:read', 'handoffs:answer:payout_bank', 'handoffs:answer:safeguarding_bank'],
        created_at: '2026-01-01T00:00:00.000Z',
        revoked_at: null,
      };
      await store.transaction((tx) => tx.insertApiKey(row));
      await store.transaction(async (tx) => {
        expect(await tx.findApiKeyByHash(row.secret_hash)).toEqual(row);
        expect(await tx.getApiKey('acct_a', 'key_scoped')).toEqual(row);
        expect(await tx.listApiKeys('acct_a')).toEqual([row]);
      });
      const revoked = { ...row, revoked_at: '2026-01-02T00:00:00.000Z' };
      await store.transaction((tx) => tx.updateApiKey(revoked));
      await store.transaction(async (tx) => {
        expect(await tx.getApiKey('acct_a', 'key_scoped')).toEqual(revoked);
      });
    }));

  it('keeps one issuer activation per account and scenario', () =>
    withStore(async (store) => {
      const activation = (overrides: Partial<IssuerActivationRow> = {}): IssuerActivationRow => ({
        account: 'acct_a',
        scenario: 'reserve-usd-cycle',
        status: 'active',
        reference: 'ISS-1',
        activated_at: '2026-01-01T00:00:00.000Z',
        revoked_at: null,
        ...overrides,
      });
      await store.transaction(async (tx) => {
        await tx.putIssuerActivation(activation());
        await tx.putIssuerActivation(activation({ scenario: 'bridge-routing' }));
        await tx.putIssuerActivation(activation({ account: 'acct_b' }));
        await tx.putIssuerActivation(
          activation({ status: 'revoked', revoked_at: '2026-01-02T00:00:00.000Z' }),
        );
      });
      await store.transaction(async (tx) => {
        expect((await tx.lockIssuerActivation('acct_a', 'reserve-usd-cycle'))?.status).toBe(
          'revoked',
        );
        expect(await tx.lockIssuerActivation('acct_c', 'reserve-usd-cycle')).toBeUndefined();
        expect((await tx.listIssuerActivations('acct_a')).map((row) => row.scenario)).toEqual([
          'bridge-routing',
          'reserve-usd-cycle',
        ]);
      });
    }));

  it('holds an activation locked by lockIssuerActivation until COMMIT, even one not there yet', () =>
    withStore(async (store) => {
      const steps = await contendedLock(
        store,
        (tx) => tx.lockIssuerActivation('acct_a', 'reserve-usd-cycle'),
        (tx) =>
          tx.putIssuerActivation({
            account: 'acct_a',
            scenario: 'reserve-usd-cycle',
            status: 'active',
            reference: 'agreement-1',
            activated_at: '2026-01-01T00:00:00.000Z',
            revoked_at: null,
          }),
        (seen) => seen?.reference ?? 'nothing',
      );
      expect(steps).toEqual(['first writes and commits', 'second sees agreement-1']);
    }));
}
