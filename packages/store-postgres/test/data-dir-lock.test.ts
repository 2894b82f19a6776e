// The data-directory lock after a kill: a restart right after the holder was killed with
// SIGKILL must not be refused while the dead holder is a zombie (killed, not yet reaped by
// its parent: kill(pid, 0) still succeeds), nor when another process got its id.
import { spawn, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { lockDataDir } from '../src/index.js';
import { waitFor } from './support/wait-for.js';

const linux = process.platform === 'linux';
const children: ChildProcess[] = [];
let dataDir = '';

afterEach(async () => {
  for (const child of children.splice(0)) child.kill('SIGKILL');
  await rm(dataDir, { recursive: true, force: true });
});

const state = (pid: number) => {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[0];
};

/** The children of `pid`, from /proc. */
function childrenOf(pid: number): number[] {
  return readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .filter((entry) => {
      try {
        const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
        return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === pid;
      } catch {
        return false;
      }
    })
    .map(Number);
}

/**
 * A process killed with SIGKILL whose parent never reaps it: `sh` starts it in the
 * background and replaces itself with a `sleep` that never waits for children.
 */
async function zombie(): Promise<number> {
  const parent = spawn('sh', ['-c', 'sleep 60 & exec sleep 61'], { stdio: 'ignore' });
  children.push(parent);
  // Killed only once sh has become the sleep that never reaps (sh itself would).
  const pid = await waitFor('sh replaced by sleep, with its child', () => {
    const command = readFileSync(`/proc/${parent.pid}/cmdline`, 'utf8');
    const [child] = childrenOf(parent.pid!);
    return Promise.resolve(command.startsWith('sleep\0') && child ? child : undefined);
  });
  process.kill(pid, 'SIGKILL');
  await waitFor('the killed child is a zombie', () =>
    Promise.resolve(state(pid) === 'Z' || undefined),
  );
  return pid;
}

describe.runIf(linux)('lockDataDir after a kill', () => {
  it('takes over at once from a holder killed with SIGKILL and not yet reaped', async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'programrun-lock-'));
    const dead = await zombie();
    // kill(pid, 0) succeeds on a zombie: the check the lock used to rely on.
    expect(() => process.kill(dead, 0)).not.toThrow();
    await writeFile(join(dataDir, 'programrun.lock'), `${dead}\n`);
    const lock = await lockDataDir(dataDir);
    expect((await readFile(join(dataDir, 'programrun.lock'), 'utf8')).split('\n')[0]).toBe(
      String(process.pid),
    );
    await lock.release();
  });

  it('takes over from a holder whose id another process got, and refuses the live holder', async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'programrun-lock-'));
    const other = spawn('sleep', ['60']);
    children.push(other);
    await waitFor('sleep runs', () =>
      Promise.resolve(
        readFileSync(`/proc/${other.pid}/cmdline`, 'utf8').startsWith('sleep') || undefined,
      ),
    );
    // The lock names the live process's id, but another start time: a dead holder's.
    await writeFile(join(dataDir, 'programrun.lock'), `${other.pid}\n1\n`);
    const lock = await lockDataDir(dataDir);
    const written = await readFile(join(dataDir, 'programrun.lock'), 'utf8');
    expect(written).toMatch(new RegExp(`^${process.pid}\\n\\d+\\n$`));
    expect((await stat(join(dataDir, 'programrun.lock'))).mode & 0o777).toBe(0o600);
    await lock.release();
    // The same id with its real start time is the holder itself: refused.
    const started = readFileSync(`/proc/${other.pid}/stat`, 'utf8').split(') ')[1]!.split(' ')[19];
    await writeFile(join(dataDir, 'programrun.lock'), `${other.pid}\n${started}\n`);
    await expect(lockDataDir(dataDir)).rejects.toThrow(`is in use by process ${other.pid}`);
  });
});
