// The CLI's tests run the built binary (dist/bin.js over the dependencies' dist), as
// users do. Under turbo, `test` depends on `build` (packages/cli/turbo.json) and nothing
// here is out of date. Run directly (`vitest run`), this rebuilds the JavaScript of each
// package whose sources are newer than its build, dependencies first (tsup without
// declarations: fast, and independent of type errors elsewhere; typecheck reports those).
import { execFileSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
/** The CLI and the workspace packages it runs on, dependencies first. */
const PACKAGES = [
  'evidence',
  'dsl',
  'engine',
  'testing',
  'http',
  'store-postgres',
  'webhooks',
  'cli',
];

function newest(path: string): number {
  const info = statSync(path, { throwIfNoEntry: false });
  if (!info) return 0;
  if (!info.isDirectory()) return path.endsWith('.test.ts') ? 0 : info.mtimeMs;
  return Math.max(0, ...readdirSync(path).map((name) => newest(join(path, name))));
}

function outOfDate(name: string): boolean {
  const directory = join(ROOT, 'packages', name);
  const built = statSync(join(directory, 'dist', name === 'cli' ? 'bin.js' : 'index.js'), {
    throwIfNoEntry: false,
  });
  if (!built) return true;
  const sources = Math.max(
    newest(join(directory, 'src')),
    newest(join(directory, 'package.json')),
    newest(join(directory, 'tsup.config.ts')),
  );
  return sources > built.mtimeMs;
}

export default function setup(): void {
  for (const name of PACKAGES.filter(outOfDate)) {
    execFileSync(join(ROOT, 'node_modules', '.bin', 'tsup'), ['--no-dts', '--silent'], {
      cwd: join(ROOT, 'packages', name),
      stdio: ['ignore', 'ignore', 'inherit'],
    });
  }
}
