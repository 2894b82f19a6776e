import { isSpanContextValid, trace } from '@opentelemetry/api';
import type { AccessLogger, ErrorLogger } from '@programrun/http';
import pino, { type Logger } from 'pino';
import type { LogSettings } from './log-settings.js';

/** The reference server's logs: pino, one JSON line per entry. */
export interface ServerLogger {
  readonly logger: Logger;
  /** One line per request at `info` (the handler's `onAccess`). */
  readonly onAccess: AccessLogger;
  /** One line per 5xx at `error`, with what was thrown and its cause (the handler's `onError`). */
  readonly onError: ErrorLogger;
  /** Reports a background loop's failure (scheduler, webhook dispatcher) at `error`. */
  backgroundError(component: string): (error: unknown) => void;
}

/** A pino destination writing each line through `write` (without its newline). */
const lines = (write: (line: string) => void) => ({
  write: (line: string) => write(line.endsWith('\n') ? line.slice(0, -1) : line),
});

/** The active span's trace and span ids, for a line that does not carry its own. */
function activeTrace(fields: object): Record<string, string> {
  if ('trace_id' in fields) return {};
  const context = trace.getActiveSpan()?.spanContext();
  if (!context || !isSpanContextValid(context)) return {};
  return { trace_id: context.traceId, span_id: context.spanId };
}

/**
 * The reference server's logger: JSON lines with `level` (its name), `time` (ISO),
 * `message`, `pid` and `hostname`, on stdout (`console.log`) and, from `error` up, on
 * stderr (`console.error`) instead; the active span's `trace_id` and `span_id` when there
 * is one. Request lines come from the handler's access and error logs, never with
 * credentials (the handler's entries carry ids only).
 */
export function createServerLogger(settings: LogSettings): ServerLogger {
  const logger = pino(
    {
      level: settings.level,
      messageKey: 'message',
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
      mixin: (fields) => activeTrace(fields),
    },
    pino.multistream(
      [
        { level: 'trace', stream: lines((line) => console.log(line)) },
        { level: 'error', stream: lines((line) => console.error(line)) },
      ],
      { dedupe: true },
    ),
  );
  const access =
    settings.accessLevel === settings.level
      ? logger
      : logger.child({}, { level: settings.accessLevel });
  return {
    logger,
    onAccess: ({ level: _level, message, ...fields }) => access.info(fields, message),
    onError: ({ level: _level, message, ...fields }) => logger.error(fields, message),
    backgroundError: (component) => (error) =>
      logger.error({ component, err: error }, `${component} failed`),
  };
}
