import { UsageError } from '../usage-error.js';

/** The variable that sets the reference server's log level. */
export const LOG_LEVEL_VARIABLE = 'PROGRAMRUN_LOG_LEVEL';

/** The levels of PROGRAMRUN_LOG_LEVEL, most verbose first (pino's), and `silent`. */
export const LOG_LEVELS = ['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent'] as const;

/** A level of {@link LOG_LEVELS}. */
export type LogLevel = (typeof LOG_LEVELS)[number];

/** How the reference server logs. */
export interface LogSettings {
  /** The level of every log line. */
  readonly level: LogLevel;
  /** The level of the per-request lines: `info` with `--access-log` even when `level` is higher. */
  readonly accessLevel: LogLevel;
}

const isLevel = (value: string): value is LogLevel =>
  (LOG_LEVELS as readonly string[]).includes(value);

/**
 * The log settings of an environment: PROGRAMRUN_LOG_LEVEL (trace, debug, info, warn,
 * error, fatal or silent), by default `info`, or `silent` under NODE_ENV=test (the
 * environment's, else this process's). `accessLog` (`--access-log`) keeps the per-request
 * lines at `info` whatever the level. Anything else is a usage error.
 */
export function logSettings(
  environment: Readonly<Record<string, string | undefined>>,
  accessLog: boolean,
): LogSettings {
  const configured = environment[LOG_LEVEL_VARIABLE];
  if (configured !== undefined && configured !== '' && !isLevel(configured))
    throw new UsageError(
      `${LOG_LEVEL_VARIABLE} must be one of ${LOG_LEVELS.join(', ')}, not "${configured}"`,
    );
  const testing = (environment.NODE_ENV ?? process.env.NODE_ENV) === 'test';
  const level: LogLevel = configured || (testing ? 'silent' : 'info');
  const quieterThanInfo = LOG_LEVELS.indexOf(level) > LOG_LEVELS.indexOf('info');
  return { level, accessLevel: accessLog && quieterThanInfo ? 'info' : level };
}
