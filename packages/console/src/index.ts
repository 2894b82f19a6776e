export { createConsoleHandler } from './console-handler.js';
export type { ConsoleHandler, ConsoleHandlerOptions } from './console-handler.js';
export { CONSOLE_CONTENT_SECURITY_POLICY, CONSOLE_SECURITY_HEADERS } from './security-headers.js';
