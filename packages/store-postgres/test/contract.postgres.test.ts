// Store spec v1 contract on a real PostgreSQL server (a fresh schema per test).
import { describe, it } from 'vitest';
import { defineStoreContract } from '@programrun/engine/store-contract';
import { createTestPostgresStore, TEST_DATABASE_URL } from './support/test-database.js';

if (TEST_DATABASE_URL === undefined) {
  describe.skip('Store spec v1 contract: postgres (set PROGRAMRUN_TEST_DATABASE_URL)', () => {
    it('needs a PostgreSQL server', () => undefined);
  });
} else {
  defineStoreContract('postgres', () => createTestPostgresStore({ maxConnections: 4 }));
}
