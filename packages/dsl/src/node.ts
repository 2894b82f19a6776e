// `@programrun/dsl/node`: what reads scenario files, for runtimes with `node:fs` (Node, Bun,
// Deno). Elsewhere, load the text yourself and call `loadScenario(text)`.
export { loadScenarioFile, loadScenarioDirectory } from './node/load-files.js';
export type { DirectoryLoadResult } from './node/load-files.js';
export { loadCatalogue } from './node/load-catalogue.js';
