// Store spec v1 contract on a real PostgreSQL server (a fresh schema per test).
import { defineStoreContract } from '@programrun/engine/store-contract';
import { createTestPostgresStore } from './support/test-database.js';

defineStoreContract('postgres', () => createTestPostgresStore({ maxConnections: 4 }));
