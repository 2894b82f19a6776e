import { createTestHandler, TEST_KEY } from './harness.js';
import { defineHostileInputSuite } from './hostile-inputs.js';

// Every route, every string and number position, on the memory store (the PGlite and
// PostgreSQL runs are in @programrun/store-postgres, test/hostile-inputs.test.ts).
defineHostileInputSuite(
  'memory',
  async () => {
    const { handler } = await createTestHandler();
    return { handler, key: TEST_KEY, close: () => Promise.resolve() };
  },
  { randomRunsPerRoute: Number(process.env.PROGRAMRUN_FUZZ_RUNS ?? 20) },
);
