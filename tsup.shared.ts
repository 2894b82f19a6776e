// The tsup settings every package shares: ESM with declarations for Node 20.
import { defineConfig } from 'tsup';

/** Build options for a package with these entry files. */
export function packageBuild(entry: string[]) {
  return defineConfig({
    entry,
    format: ['esm'],
    dts: true,
    sourcemap: true,
    clean: true,
    target: 'node20',
  });
}
