// The repository's pnpm, for steps a maintainer runs (packing): the one running this test
// when there is one, else the version `packageManager` pins, through npx.
import { readFileSync } from 'node:fs';
import { repositoryFile } from './markdown-blocks.js';

/**
 * The command and leading arguments that run this repository's pnpm.
 *
 * @example
 * ```ts
 * const pnpm = pnpmCommand();
 * await mustRun(pnpm.command, [...pnpm.args, 'pack'], { cwd });
 * ```
 */
export function pnpmCommand(): { readonly command: string; readonly args: readonly string[] } {
  const running = process.env.npm_execpath;
  if (running && /pnpm/.test(running)) return { command: process.execPath, args: [running] };
  const manifest = JSON.parse(readFileSync(repositoryFile('package.json'), 'utf8')) as {
    packageManager: string;
  };
  return { command: 'npx', args: ['-y', manifest.packageManager] };
}
