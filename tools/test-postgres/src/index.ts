export {
  startPrivatePostgres,
  type PrivatePostgres,
  type PrivatePostgresOptions,
} from './private-postgres.js';
export { testDatabaseUrl, TEST_DATABASE_URL_VARIABLE } from './test-database-url.js';
