// Which Node built-ins a module graph reaches, found by bundling it: esbuild follows every
// import (our packages from source, third-party ones as installed) and keeps the built-ins
// external, so its metafile names each module that imports one.
import { builtinModules } from 'node:module';
import { build, type Metafile } from 'esbuild';

/**
 * The built-ins a runtime-neutral module may not import: Workers, Deno and Bun have
 * `node:crypto`, but not these (or not without a compatibility flag).
 */
export const FORBIDDEN_BUILTINS = [
  'http',
  'https',
  'net',
  'tls',
  'dns',
  'fs',
  'module',
  'child_process',
  'worker_threads',
] as const;

/** One import of a forbidden built-in, and how the entry reaches the module that makes it. */
export interface BuiltinImport {
  readonly builtin: string;
  /** The import chain from the entry to the importing module, repository-relative. */
  readonly chain: readonly string[];
}

const every = builtinModules.flatMap((name) => [name, `node:${name}`]);

/** `node:fs/promises` → `fs`. */
const baseName = (path: string): string => path.replace(/^node:/, '').split('/')[0]!;

/** The shortest import chain from `entry` to `target` in the metafile's graph. */
function chainTo(metafile: Metafile, entry: string, target: string): string[] {
  const previous = new Map<string, string>([[entry, '']]);
  const queue = [entry];
  while (queue.length > 0) {
    const current = queue.shift()!;
    if (current === target) break;
    for (const next of metafile.inputs[current]?.imports ?? []) {
      if (next.external || previous.has(next.path)) continue;
      previous.set(next.path, current);
      queue.push(next.path);
    }
  }
  const chain: string[] = [];
  for (let at = target; at !== ''; at = previous.get(at) ?? '') chain.unshift(at);
  return chain;
}

/**
 * The forbidden built-ins reachable from an entry file (with the `@programrun/source`
 * condition, so workspace packages are read from source), each with its import chain.
 *
 * @example
 * ```ts
 * const found = await forbiddenBuiltinImports('packages/engine/src/index.ts', repositoryRoot);
 * ```
 */
export async function forbiddenBuiltinImports(
  entry: string,
  workingDirectory: string,
): Promise<BuiltinImport[]> {
  const result = await build({
    entryPoints: [entry],
    absWorkingDir: workingDirectory,
    bundle: true,
    write: false,
    metafile: true,
    format: 'esm',
    platform: 'neutral',
    mainFields: ['module', 'main'],
    conditions: ['@programrun/source', 'import', 'default'],
    external: every,
    logLevel: 'silent',
  });
  const metafile = result.metafile;
  const root = Object.keys(metafile.inputs).find((input) => input.endsWith(entry)) ?? entry;
  const found: BuiltinImport[] = [];
  for (const [input, { imports }] of Object.entries(metafile.inputs)) {
    for (const imported of imports) {
      if (!imported.external) continue;
      const builtin = baseName(imported.path);
      if ((FORBIDDEN_BUILTINS as readonly string[]).includes(builtin))
        found.push({ builtin, chain: chainTo(metafile, root, input) });
    }
  }
  return found;
}
