export { runCli } from './cli.js';
export type { CliContext } from './cli.js';
export { verifyCommand, EXIT } from './commands/verify.js';
export type { Output } from './commands/verify.js';
export { keysCommand } from './commands/keys.js';
export { activationsCommand } from './commands/activations.js';
export { openStoreFromEnvironment } from './store/open-store.js';
export type { OpenedStore, StoreOpener } from './store/open-store.js';
export { UsageError } from './usage-error.js';
