import { defineStoreContract } from '../store-contract.js';
import { createMemoryStore } from './memory-store.js';

defineStoreContract('memory', () => createMemoryStore());
