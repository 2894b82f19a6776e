// The reference server's store when PROGRAMRUN_STORE is unset: embedded PostgreSQL in the
// data directory, or PGlite with a notice when embedded PostgreSQL cannot run there (here:
// a data directory that holds a PGlite store from before embedded PostgreSQL was the
// default). A store that was asked for is never swapped for another.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openReferenceStore } from '../src/serve/reference-store.js';
import { UsageError } from '../src/usage-error.js';

const directories: string[] = [];
afterEach(async () => {
  for (const directory of directories.splice(0)) {
    await rm(directory, { recursive: true, force: true });
  }
});

async function freshDirectory(): Promise<string> {
  const directory = await mkdtemp(join(tmpdir(), 'programrun-reference-store-'));
  directories.push(directory);
  return directory;
}

describe('the reference server’s store', () => {
  it('is embedded PostgreSQL by default', async () => {
    const dataDir = await freshDirectory();
    const { opened, notice } = await openReferenceStore({ PROGRAMRUN_DATA_DIR: dataDir });
    await opened.close();
    expect([opened.kind, opened.location, notice]).toEqual(['embedded', dataDir, null]);
  });

  it('stays on PGlite, saying why, in a data directory that holds a PGlite store', async () => {
    const dataDir = await freshDirectory();
    const earlier = await openReferenceStore({
      PROGRAMRUN_STORE: 'pglite',
      PROGRAMRUN_DATA_DIR: dataDir,
    });
    await earlier.opened.close();
    expect(earlier.notice).toBeNull();

    const { opened, notice } = await openReferenceStore({ PROGRAMRUN_DATA_DIR: dataDir });
    await opened.close();
    expect([opened.kind, opened.location]).toEqual(['pglite', dataDir]);
    expect(notice).toBe(
      `not on embedded PostgreSQL: ${dataDir} holds a PGlite store (pglite/). PGlite does not survive a power loss; set PROGRAMRUN_STORE to choose a store`,
    );

    // Asked for by name, embedded PostgreSQL refuses the directory instead.
    const refusal = await openReferenceStore({
      PROGRAMRUN_STORE: 'embedded',
      PROGRAMRUN_DATA_DIR: dataDir,
    }).catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(UsageError);
    expect((refusal as Error).message).toMatch(/holds a PGlite store \(pglite\/\), not embedded/);
  });
});
