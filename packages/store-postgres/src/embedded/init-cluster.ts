// initdb, once per data directory: into a scratch directory first, renamed into place when
// complete, so a host killed during initdb leaves no half-made cluster behind.
import { spawn } from 'node:child_process';
import { access, chown, mkdir, open, rename, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { StoreError } from '@programrun/engine';
import type { ClusterLayout } from './cluster-layout.js';
import type { ServerAccount } from './server-account.js';
import { SERVER_ROLE } from './server-settings.js';

const exists = (path: string) =>
  access(path).then(
    () => true,
    () => false,
  );

/** Whether `layout` holds an initialised cluster. */
export function clusterExists(layout: ClusterLayout): Promise<boolean> {
  return exists(join(layout.clusterDir, 'PG_VERSION'));
}

/** Runs `program args` as `account`; rejects with its output when it fails. */
function runAs(program: string, args: string[], account: ServerAccount | null): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(program, args, {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { PATH: process.env.PATH ?? '', LC_ALL: 'C', TZ: 'UTC' },
      ...(account ? { uid: account.uid, gid: account.gid } : {}),
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('error', reject);
    child.once('close', (code, signal) =>
      code === 0
        ? resolve()
        : reject(new Error(`${program} exited with ${String(code ?? signal)}: ${output.trim()}`)),
    );
  });
}

/**
 * Creates the cluster of `layout` with `password` for the `postgres` role (SCRAM), UTF-8,
 * the C locale and data checksums. initdb flushes every file it wrote before it returns.
 */
export async function initCluster(
  layout: ClusterLayout,
  initdb: string,
  password: string,
  account: ServerAccount | null,
): Promise<void> {
  await rm(layout.initDir, { recursive: true, force: true });
  await mkdir(layout.initDir, { mode: 0o700 });
  // initdb reads the password from a file it can open; removed as soon as it is done.
  const passwordFile = `${layout.initDir}.password`;
  await writeFile(passwordFile, `${password}\n`, { mode: 0o600 });
  try {
    if (account) {
      await chown(layout.initDir, account.uid, account.gid);
      await chown(passwordFile, account.uid, account.gid);
    }
    await runAs(
      initdb,
      [
        `--pgdata=${layout.initDir}`,
        `--username=${SERVER_ROLE}`,
        `--pwfile=${passwordFile}`,
        '--auth=scram-sha-256',
        '--encoding=UTF8',
        '--locale=C',
        '--data-checksums',
      ],
      account,
    );
  } catch (error) {
    await rm(layout.initDir, { recursive: true, force: true });
    throw new StoreError(
      'store_unavailable',
      `cannot create the embedded PostgreSQL cluster in ${layout.clusterDir}: ${error instanceof Error ? error.message : String(error)}`,
      { cause: error },
    );
  } finally {
    await rm(passwordFile, { force: true });
  }
  await rename(layout.initDir, layout.clusterDir);
  // The rename (and the kept password beside it) must outlive a power loss: otherwise the
  // next start would make a new, empty cluster over the runs committed in the meantime.
  await syncDirectory(dirname(layout.clusterDir));
}

/** Flushes a directory's entries (names created or renamed in it) to disk. */
export async function syncDirectory(directory: string): Promise<void> {
  if (process.platform === 'win32') return;
  const handle = await open(directory, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}
