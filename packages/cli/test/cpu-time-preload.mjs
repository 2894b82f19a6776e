// Preloaded (`node --import`) into a command that `programrun(…, { cpuTime: true })` runs:
// as the process exits, it writes the CPU time its main thread used (user and system, in
// milliseconds) to file descriptor 3, which the test reads. The main thread's alone, from
// /proc on Linux (clock ticks of 10 ms): V8's garbage collector works on helper threads
// beside it, which the process-wide figure would add. Elsewhere, the process's.
import { readFileSync, writeSync } from 'node:fs';

/** USER_HZ, the unit of /proc's CPU times: 100 on every Linux architecture Node runs on. */
const TICKS_PER_SECOND = 100;

function mainThreadMs() {
  try {
    const stat = readFileSync(`/proc/self/task/${process.pid}/stat`, 'utf8');
    // Fields after the command name in parentheses: state is 3rd, utime 14th, stime 15th.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND;
  } catch {
    const { user, system } = process.cpuUsage();
    return (user + system) / 1000;
  }
}

process.on('exit', () => {
  try {
    writeSync(3, String(mainThreadMs()));
  } catch {
    // Not run by the test helper: there is no descriptor 3 to report to.
  }
});
