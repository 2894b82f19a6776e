import {
  StoreError,
  type AccessRequestRow,
  type ApiKeyRow,
  type IssuerActivationRow,
  type Scope,
  type StoreTransactionV1,
  type TestClockRow,
} from '@programrun/engine';
import { PREPARED, PREPARED_READ, type SqlExecutor } from '../sql/sql-database.js';

type AccountTables = Pick<
  StoreTransactionV1,
  | 'getTestClock'
  | 'putTestClock'
  | 'listTestClocks'
  | 'insertApiKey'
  | 'findApiKeyByHash'
  | 'getApiKey'
  | 'listApiKeys'
  | 'updateApiKey'
  | 'lockIssuerActivation'
  | 'putIssuerActivation'
  | 'listIssuerActivations'
  | 'insertAccessRequest'
  | 'getAccessRequestBySession'
>;

const KEY_COLUMNS =
  'id, account, environment, secret_hash, last4, description, actor, scopes, created_at, revoked_at';
const ACTIVATION_COLUMNS = 'account, scenario, status, reference, activated_at, revoked_at';
const CLOCK_COLUMNS = 'account, offset_ms::float8 AS offset_ms, updated_at';
const REQUEST_COLUMNS =
  'id, account, environment, session_id, name, email, company, use_case, created_at';

/**
 * Per-account tables: API keys, issuer activations, test clocks and access requests.
 * Reading an activation takes a transaction-scoped advisory lock on (account, scenario),
 * so a run created while its scenario is being activated either sees the activation or
 * is committed before the activation resumes suspended runs (never left behind).
 */
export function accountTables(sql: SqlExecutor, schema: string): AccountTables {
  const lockActivation = (account: string, scenario: string) =>
    sql.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [
      `programrun:activation:${account}:${scenario}`,
    ]);
  return {
    async getTestClock(account: string) {
      const { rows } = await sql.query<TestClockRow>(
        `SELECT ${CLOCK_COLUMNS} FROM ${schema}.test_clocks WHERE account = $1`,
        [account],
        PREPARED_READ,
      );
      return rows[0];
    },

    async putTestClock(clock: TestClockRow) {
      await sql.query(
        `INSERT INTO ${schema}.test_clocks (account, offset_ms, updated_at) VALUES ($1, $2, $3)
         ON CONFLICT (account) DO UPDATE SET offset_ms = EXCLUDED.offset_ms, updated_at = EXCLUDED.updated_at`,
        [clock.account, clock.offset_ms, clock.updated_at],
      );
    },

    async listTestClocks() {
      const { rows } = await sql.query<TestClockRow>(
        `SELECT ${CLOCK_COLUMNS} FROM ${schema}.test_clocks ORDER BY account`,
      );
      return rows;
    },

    async insertApiKey(key: ApiKeyRow) {
      await sql.query(
        `INSERT INTO ${schema}.api_keys (${KEY_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
        [
          key.id,
          key.account,
          key.environment,
          key.secret_hash,
          key.last4,
          key.description,
          key.actor,
          JSON.stringify(key.scopes),
          key.created_at,
          key.revoked_at,
        ],
      );
    },

    async findApiKeyByHash(secretHash: string) {
      const { rows } = await sql.query<ApiKeyRow>(
        `SELECT ${KEY_COLUMNS} FROM ${schema}.api_keys WHERE secret_hash = $1`,
        [secretHash],
        PREPARED,
      );
      return rows[0];
    },

    async getApiKey(account: string, id: string) {
      const { rows } = await sql.query<ApiKeyRow>(
        `SELECT ${KEY_COLUMNS} FROM ${schema}.api_keys WHERE id = $1 AND account = $2`,
        [id, account],
      );
      return rows[0];
    },

    async listApiKeys(account: string) {
      const { rows } = await sql.query<ApiKeyRow>(
        `SELECT ${KEY_COLUMNS} FROM ${schema}.api_keys WHERE account = $1 ORDER BY created_at, id`,
        [account],
      );
      return rows;
    },

    async updateApiKey(key: ApiKeyRow) {
      const { rowCount } = await sql.query(
        `UPDATE ${schema}.api_keys SET last4 = $3, description = $4, revoked_at = $5, actor = $6,
           scopes = $7
         WHERE id = $1 AND secret_hash = $2`,
        [
          key.id,
          key.secret_hash,
          key.last4,
          key.description,
          key.revoked_at,
          key.actor,
          JSON.stringify(key.scopes),
        ],
      );
      if (rowCount !== 1) throw new StoreError('not_found', `api key ${key.id} does not exist`);
    },

    async lockIssuerActivation(account: string, scenario: string) {
      await lockActivation(account, scenario);
      const { rows } = await sql.query<IssuerActivationRow>(
        `SELECT ${ACTIVATION_COLUMNS} FROM ${schema}.issuer_activations
         WHERE account = $1 AND scenario = $2`,
        [account, scenario],
      );
      return rows[0];
    },

    async putIssuerActivation(activation: IssuerActivationRow) {
      await lockActivation(activation.account, activation.scenario);
      await sql.query(
        `INSERT INTO ${schema}.issuer_activations (${ACTIVATION_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6)
         ON CONFLICT (account, scenario) DO UPDATE SET status = EXCLUDED.status,
           reference = EXCLUDED.reference, activated_at = EXCLUDED.activated_at,
           revoked_at = EXCLUDED.revoked_at`,
        [
          activation.account,
          activation.scenario,
          activation.status,
          activation.reference,
          activation.activated_at,
          activation.revoked_at,
        ],
      );
    },

    async listIssuerActivations(account: string) {
      const { rows } = await sql.query<IssuerActivationRow>(
        `SELECT ${ACTIVATION_COLUMNS} FROM ${schema}.issuer_activations WHERE account = $1
         ORDER BY scenario`,
        [account],
      );
      return rows;
    },

    async insertAccessRequest(request: AccessRequestRow) {
      await sql.query(
        `INSERT INTO ${schema}.access_requests (${REQUEST_COLUMNS})
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
        [
          request.id,
          request.account,
          request.environment,
          request.session_id,
          request.name,
          request.email,
          request.company,
          request.use_case,
          request.created_at,
        ],
      );
    },

    async getAccessRequestBySession(scope: Scope, sessionId: string) {
      const { rows } = await sql.query<AccessRequestRow>(
        `SELECT ${REQUEST_COLUMNS} FROM ${schema}.access_requests
         WHERE account = $1 AND environment = $2 AND session_id = $3`,
        [scope.account, scope.environment, sessionId],
        PREPARED_READ,
      );
      return rows[0];
    },
  };
}
