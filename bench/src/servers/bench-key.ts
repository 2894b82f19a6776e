import { formatApiKey } from '@programrun/engine';

/** The test key every benchmark server accepts (a fixed, well-formed key). */
export const BENCH_KEY = formatApiKey('test', 'BenchmarkKey0123456789abcdefghij');
