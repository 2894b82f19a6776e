import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import packageJson from '../package.json' with { type: 'json' };

// Express, Fastify and Hono are optional peer dependencies: a host that uses one of them
// must not need the others installed. So the library imports them as types only (erased
// at build time) and never loads them at run time.

const FRAMEWORKS = /^(express|fastify|hono|@hono\/node-server)(\/.*)?$/;
const source = fileURLToPath(new URL('../src/', import.meta.url));

function sourceFiles(directory: string): string[] {
  return readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    const path = join(directory, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [path] : [];
  });
}

describe('framework imports', () => {
  it('are type-only everywhere in the library source', () => {
    const offending: string[] = [];
    for (const file of sourceFiles(source)) {
      const text = readFileSync(file, 'utf8');
      const statements = text.matchAll(/^\s*(import|export)\s+([^;]*?)\s+from\s+'([^']+)'/gms);
      for (const [statement, , clause, specifier] of statements) {
        if (FRAMEWORKS.test(specifier!) && !/^type\s/.test(clause!))
          offending.push(`${file}: ${statement}`);
      }
      for (const [call] of text.matchAll(/\b(?:import|require)\(\s*'([^']+)'\s*\)/g)) {
        const specifier = /'([^']+)'/.exec(call)![1]!;
        if (FRAMEWORKS.test(specifier)) offending.push(`${file}: ${call}`);
      }
    }
    expect(offending).toEqual([]);
  });

  it('are optional peer dependencies, never dependencies', () => {
    const dependencies = Object.keys(packageJson.dependencies);
    expect(dependencies.filter((name) => FRAMEWORKS.test(name))).toEqual([]);
    for (const name of ['express', 'fastify', 'hono']) {
      expect(packageJson.peerDependencies).toHaveProperty(name);
      expect(packageJson.peerDependenciesMeta).toHaveProperty([name, 'optional'], true);
    }
  });
});
