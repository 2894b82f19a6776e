import type {
  AccessRequestRow,
  AccountOperations,
  ApiKeyRow,
  IssuerActivationRow,
} from './account-spec.js';
import { ascending, scopeKey, type MemoryState } from './memory-state.js';
import type { Scope } from './run-spec.js';
import { StoreError } from './store-error.js';
import type { UndoLog } from './undo-log.js';

const activationKey = (account: string, scenario: string): string => `${account}\u0000${scenario}`;

/**
 * API keys, issuer activations and leads of the memory store. Its transactions run one at
 * a time, so `lockIssuerActivation` holds by construction.
 */
export function memoryAccountTables(state: MemoryState, undo: () => UndoLog): AccountOperations {
  return {
    insertApiKey(key: ApiKeyRow): Promise<void> {
      if (state.apiKeys.has(key.id) || state.apiKeysByHash.has(key.secret_hash)) {
        throw new StoreError('duplicate_key', `api key ${key.id} exists`);
      }
      undo().set(state.apiKeys, key.id, key);
      undo().set(state.apiKeysByHash, key.secret_hash, key.id);
      return Promise.resolve();
    },

    findApiKeyByHash(secretHash: string): Promise<ApiKeyRow | undefined> {
      const id = state.apiKeysByHash.get(secretHash);
      return Promise.resolve(id === undefined ? undefined : state.apiKeys.get(id));
    },

    getApiKey(account: string, id: string): Promise<ApiKeyRow | undefined> {
      const key = state.apiKeys.get(id);
      return Promise.resolve(key?.account === account ? key : undefined);
    },

    listApiKeys(account: string): Promise<ApiKeyRow[]> {
      return Promise.resolve(
        [...state.apiKeys.values()]
          .filter((key) => key.account === account)
          .sort((a, b) => ascending(a.created_at, b.created_at) || (a.id < b.id ? -1 : 1)),
      );
    },

    updateApiKey(key: ApiKeyRow): Promise<void> {
      const current = state.apiKeys.get(key.id);
      if (!current || current.secret_hash !== key.secret_hash) {
        throw new StoreError('not_found', `api key ${key.id} does not exist`);
      }
      undo().set(state.apiKeys, key.id, key);
      return Promise.resolve();
    },

    lockIssuerActivation(
      account: string,
      scenario: string,
    ): Promise<IssuerActivationRow | undefined> {
      return Promise.resolve(state.activations.get(activationKey(account, scenario)));
    },

    putIssuerActivation(activation: IssuerActivationRow): Promise<void> {
      undo().set(
        state.activations,
        activationKey(activation.account, activation.scenario),
        activation,
      );
      return Promise.resolve();
    },

    listIssuerActivations(account: string): Promise<IssuerActivationRow[]> {
      return Promise.resolve(
        [...state.activations.values()]
          .filter((activation) => activation.account === account)
          .sort((a, b) => ascending(a.scenario, b.scenario)),
      );
    },

    insertAccessRequest(request: AccessRequestRow): Promise<void> {
      const key = scopeKey(request, request.session_id);
      if (state.accessRequests.has(key)) {
        throw new StoreError('duplicate_key', 'an access request exists for this session');
      }
      undo().set(state.accessRequests, key, request);
      return Promise.resolve();
    },

    getAccessRequestBySession(
      scope: Scope,
      sessionId: string,
    ): Promise<AccessRequestRow | undefined> {
      return Promise.resolve(state.accessRequests.get(scopeKey(scope, sessionId)));
    },
  };
}
