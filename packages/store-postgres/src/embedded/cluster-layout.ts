// Where an embedded server keeps its files inside the store's data directory.
import { join } from 'node:path';

/** The paths of an embedded server in `dataDir`. */
export interface ClusterLayout {
  /** The PostgreSQL data directory (initdb's), also the directory of its Unix socket. */
  readonly clusterDir: string;
  /** Where initdb builds a new cluster before it is renamed to `clusterDir`. */
  readonly initDir: string;
  /** The server's password for the `postgres` role (0600). */
  readonly passwordFile: string;
  /** The server's own log (its stdout and stderr), appended at each start. */
  readonly logFile: string;
}

/** The layout of the embedded server in `dataDir`. */
export function clusterLayout(dataDir: string): ClusterLayout {
  return {
    clusterDir: join(dataDir, 'postgres'),
    initDir: join(dataDir, 'postgres.initdb'),
    passwordFile: join(dataDir, 'postgres-password'),
    logFile: join(dataDir, 'postgres.log'),
  };
}
