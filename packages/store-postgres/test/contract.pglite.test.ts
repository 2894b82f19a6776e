// Store spec v1 contract on embedded PGlite (a fresh in-memory database per test).
import { defineStoreContract } from '@programrun/engine/store-contract';
import { createPGliteStore } from '../src/index.js';

defineStoreContract('pglite', () => createPGliteStore());
