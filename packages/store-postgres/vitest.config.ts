// Contract, migration, crash and two-host suites share one PostgreSQL server: files run one
// at a time so the crash rounds are not starved of the machine's two cores.
import { defineConfig, mergeConfig } from 'vitest/config';
import shared from '../../vitest.shared.js';

export default mergeConfig(shared, defineConfig({ test: { fileParallelism: false } }));
