// Every line the in-process reference server logs (its pino logger writes through
// console.log and console.error), kept so tests can assert what never appears in them.
import { format } from 'node:util';

/** The captured lines; `stop()` puts the console back. */
export interface ServerLogs {
  readonly lines: readonly string[];
  stop(): void;
}

/** A line of the server's JSON logs (the tests' own console output passes through). */
const isServerLine = (line: string) => line.startsWith('{"level":');

/** Starts capturing: server lines are kept (not printed), every other line is printed. */
export function captureServerLogs(): ServerLogs {
  const lines: string[] = [];
  const { log, error } = console;
  const tap =
    (print: (...values: unknown[]) => void) =>
    (...values: unknown[]) => {
      const line = format(...values);
      lines.push(line);
      if (!isServerLine(line)) print(...values);
    };
  console.log = tap(log);
  console.error = tap(error);
  return {
    lines,
    stop() {
      console.log = log;
      console.error = error;
    },
  };
}
