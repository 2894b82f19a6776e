/** The test key both benchmark servers accept. */
export const BENCH_KEY = 'pr_test_BenchmarkKey0123456789ab';
