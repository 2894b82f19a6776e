export { runCli } from './cli.js';
export { verifyCommand, EXIT } from './commands/verify.js';
export type { Output } from './commands/verify.js';
