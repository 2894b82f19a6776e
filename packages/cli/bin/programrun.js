#!/usr/bin/env node
// The `programrun` command. Installed from the registry it runs the built CLI (dist/). In a
// checkout of the repository before `pnpm build`, it runs the CLI from source with tsx
// instead, so `npx programrun …` works right after install, from any directory in the
// repository, with paths relative to where it was typed.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { constants } from 'node:os';
import { fileURLToPath } from 'node:url';

const built = new URL('../dist/bin.js', import.meta.url);
const source = new URL('../src/bin.ts', import.meta.url);

if (existsSync(built) || !existsSync(source)) {
  await import(built.href);
} else {
  const child = spawn(
    process.execPath,
    [
      '--conditions=@programrun/source',
      '--import',
      'tsx',
      fileURLToPath(source),
      ...process.argv.slice(2),
    ],
    { stdio: 'inherit' },
  );
  // The child gets the terminal's signals itself; this process only waits for it.
  for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => undefined);
  child.on('exit', (code, signal) => {
    process.exitCode = code ?? 128 + (constants.signals[signal] ?? 0);
  });
}
