// Store spec v1 contract on embedded PGlite (a fresh schema per test).
import { defineStoreContract } from '@programrun/engine/store-contract';
import { usePGliteSchemas } from './support/pglite-schemas.js';

defineStoreContract('pglite', usePGliteSchemas('contract'));
