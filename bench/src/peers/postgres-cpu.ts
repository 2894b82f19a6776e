// CPU time of a PostgreSQL server on this machine: utime + stime of the postmaster and of
// every live child (backends, WAL writer, checkpointer…) from /proc/<pid>/stat, plus the
// postmaster's cutime + cstime (children that exited and were reaped, e.g. closed
// connections), so the sum never goes back when a backend ends.
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';

/** Reads a server's CPU time; `undefined` when its processes are not visible here. */
export interface PostgresCpu {
  /** The postmaster's pid. */
  readonly pid: number;
  /** CPU seconds of the server so far (user + system, every process). */
  seconds(): number;
}

/** Clock ticks per second of /proc's times (`getconf CLK_TCK`, else 100). */
function clockTicks(): number {
  try {
    const ticks = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim());
    return Number.isFinite(ticks) && ticks > 0 ? ticks : 100;
  } catch {
    return 100;
  }
}

/** The fields of /proc/<pid>/stat after the command name (field 3 onwards), or null. */
function statFields(pid: number): string[] | null {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return text.slice(text.lastIndexOf(')') + 2).split(' ');
  } catch {
    return null; // the process ended between the listing and the read
  }
}

// Indexes into statFields: ppid is field 4, utime 14, stime 15, cutime 16, cstime 17.
const PPID = 1;
const UTIME = 11;
const STIME = 12;
const CUTIME = 13;
const CSTIME = 14;

/**
 * Finds the postmaster as the parent of a backend of the server (`SELECT pg_backend_pid()`)
 * and reads its process tree's CPU time. Returns `undefined` when that backend is not a
 * process of this machine (a remote server, another container).
 *
 * @example
 * ```ts
 * const cpu = postgresCpu(backendPid);
 * const before = cpu?.seconds();
 * ```
 */
export function postgresCpu(backendPid: number): PostgresCpu | undefined {
  const backend = statFields(backendPid);
  if (!backend) return undefined;
  const pid = Number(backend[PPID]);
  const ticks = clockTicks();
  return {
    pid,
    seconds() {
      const own = statFields(pid);
      if (!own) throw new Error(`the postmaster (pid ${pid}) is gone`);
      let total =
        Number(own[UTIME]) + Number(own[STIME]) + Number(own[CUTIME]) + Number(own[CSTIME]);
      for (const entry of readdirSync('/proc')) {
        if (!/^\d+$/.test(entry)) continue;
        const fields = statFields(Number(entry));
        if (fields && Number(fields[PPID]) === pid)
          total += Number(fields[UTIME]) + Number(fields[STIME]);
      }
      return total / ticks;
    },
  };
}
