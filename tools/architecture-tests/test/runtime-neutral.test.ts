// The core runs on any runtime with fetch: nothing reachable from the main entries of
// @programrun/engine and @programrun/http (their @programrun/* dependencies and third-party
// ones included) imports http, https, net, tls, dns, fs, module, child_process or
// worker_threads. node:crypto, which Workers, Deno and Bun have, may stay.
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { FORBIDDEN_BUILTINS, forbiddenBuiltinImports } from '../src/node-builtins.js';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const here = fileURLToPath(new URL('.', import.meta.url));

const describeImports = (found: Awaited<ReturnType<typeof forbiddenBuiltinImports>>) =>
  found.map(({ builtin, chain }) => `${builtin} ← ${chain.join(' ← ')}`);

describe('a runtime-neutral core', () => {
  it.each([
    'packages/engine/src/index.ts',
    'packages/http/src/index.ts',
    'packages/dsl/src/index.ts',
    'packages/evidence/src/index.ts',
  ])('%s reaches no forbidden Node built-in', async (entry) => {
    expect(describeImports(await forbiddenBuiltinImports(entry, root))).toEqual([]);
  });

  it('names a forbidden import two modules deep, with its chain (the check itself works)', async () => {
    const found = await forbiddenBuiltinImports('fixtures/reaches-fs.ts', here);
    expect(found).toHaveLength(1);
    expect(found[0]!.builtin).toBe('fs');
    expect(found[0]!.chain.map((file) => file.split('/').pop())).toEqual([
      'reaches-fs.ts',
      'reads-files.ts',
    ]);
    expect(FORBIDDEN_BUILTINS).toContain('fs');
  });

  it('finds the Node-only parts where they belong (webhook delivery, file loaders)', async () => {
    const delivery = await forbiddenBuiltinImports('packages/webhooks/src/index.ts', root);
    expect(new Set(delivery.map((found) => found.builtin))).toEqual(
      new Set(['http', 'https', 'dns', 'net']),
    );
    const loaders = await forbiddenBuiltinImports('packages/dsl/src/node.ts', root);
    expect(loaders.map((found) => found.builtin)).toContain('fs');
  });
});
