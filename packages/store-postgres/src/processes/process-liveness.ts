// Whether a process id still names a running process. `kill(pid, 0)` alone is not enough:
// a process killed with SIGKILL stays a zombie until its parent reaps it, and kill(2)
// succeeds on a zombie, so a restart right after a kill saw the dead holder as alive.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

/** The fields of `/proc/<pid>/stat` after the command name (which may hold spaces). */
function procStat(pid: number): string[] | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  } catch {
    return null;
  }
}

const signalable = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
};

/**
 * True when `pid` runs: it exists and is not a zombie (dead, not yet reaped). On Linux the
 * state comes from `/proc/<pid>/stat`; elsewhere from `ps`.
 */
export function isProcessRunning(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  if (process.platform === 'linux') {
    const fields = procStat(pid);
    if (fields !== null) return fields[0] !== 'Z' && fields[0] !== 'X';
    return false;
  }
  if (!signalable(pid)) return false;
  if (process.platform === 'win32') return true;
  const state = spawnSync('ps', ['-o', 'stat=', '-p', String(pid)], { encoding: 'utf8' });
  return state.status !== 0 ? true : !state.stdout.trim().startsWith('Z');
}

/**
 * When `pid` started, as an opaque token that differs between two processes that had the
 * same id (clock ticks since boot on Linux), or null where it cannot be read. A lock file
 * keeps it so that a process that reuses a dead holder's id (after a reboot) is not
 * mistaken for the holder.
 */
export function processStartToken(pid: number): string | null {
  if (process.platform !== 'linux') return null;
  // Field 22 of stat is starttime; fields[0] here is field 3 (state).
  return procStat(pid)?.[19] ?? null;
}

/**
 * The command line of `pid` (arguments joined with spaces), or null when it cannot be read.
 */
export function processCommandLine(pid: number): string | null {
  if (process.platform === 'linux') {
    try {
      return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ').trim();
    } catch {
      return null;
    }
  }
  if (process.platform === 'win32') return null;
  const command = spawnSync('ps', ['-o', 'command=', '-p', String(pid)], { encoding: 'utf8' });
  return command.status === 0 ? command.stdout.trim() : null;
}
