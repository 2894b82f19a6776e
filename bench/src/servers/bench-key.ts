import { apiKeyChecksum } from '@programrun/engine';

const RANDOM = 'BenchmarkKey0123456789abcdefghij';

/** The test key both benchmark servers accept (a fixed, well-formed key). */
export const BENCH_KEY = `pr_test_${RANDOM}${apiKeyChecksum('pr_test_', RANDOM)}`;
