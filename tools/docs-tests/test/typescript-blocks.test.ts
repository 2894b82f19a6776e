// Every TypeScript block of the guides and READMEs, type-checked as a module of its own
// against the workspace's packages (from source), with strict options. A block that uses
// names it does not define says so in a comment right before it:
// `<!-- docs-test: prelude <TypeScript that declares them> -->` (invisible on GitHub).
import { mkdir, readdir, rm, writeFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { afterAll, describe, expect, it } from 'vitest';
import { snippetCompilerOptions } from '../src/compiler-options.js';
import { codeBlocks, repositoryFile } from '../src/markdown-blocks.js';

const DOCUMENTS = async (): Promise<string[]> => {
  const inDirectory = async (directory: string, pattern: RegExp) =>
    (await readdir(repositoryFile(directory)))
      .filter((name) => pattern.test(name))
      .map((name) => `${directory}/${name}`);
  const packages = await readdir(repositoryFile('packages'));
  const examples = await readdir(repositoryFile('examples'));
  return [
    'README.md',
    ...(await inDirectory('docs/guides', /\.md$/)),
    ...packages.map((name) => `packages/${name}/README.md`),
    ...examples.map((name) => `examples/${name}/README.md`),
    'scenarios/README.md',
  ];
};

const scratch = repositoryFile('tools/docs-tests/.typecheck/');

afterAll(() => rm(scratch, { recursive: true, force: true }));

describe('TypeScript in the documentation', () => {
  it('type-checks every ts block of the guides and READMEs', async () => {
    await rm(scratch, { recursive: true, force: true });
    await mkdir(scratch, { recursive: true });
    const files = new Map<string, string>();
    for (const document of await DOCUMENTS()) {
      let blocks;
      try {
        blocks = codeBlocks(repositoryFile(document));
      } catch {
        continue; // no README in this directory
      }
      for (const block of blocks.filter((candidate) => candidate.language === 'ts')) {
        const prelude = block.directive?.startsWith('prelude')
          ? block.directive.slice('prelude'.length)
          : '';
        const name = `${document.replace(/[/.]/g, '_')}_${block.line}.ts`;
        const path = join(scratch, name);
        // The prelude and the block on separate lines, so positions in the block stay exact.
        await writeFile(path, `${prelude}\nexport {};\n${block.code}\n`);
        files.set(path, `${document}:${block.line}`);
      }
    }
    expect(files.size).toBeGreaterThan(30);

    const program = ts.createProgram([...files.keys()], snippetCompilerOptions());
    const problems = ts
      .getPreEmitDiagnostics(program)
      .filter((diagnostic) => diagnostic.file && files.has(diagnostic.file.fileName))
      .map((diagnostic) => {
        const file = diagnostic.file!;
        const { line, character } = file.getLineAndCharacterOfPosition(diagnostic.start ?? 0);
        const prelude = file.text.split('\n').indexOf('export {};') + 1;
        const where = files.get(file.fileName)!;
        const [document, fence] = where.split(':');
        const inBlock = line - prelude;
        const message = ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n');
        return inBlock >= 0
          ? `${document}:${Number(fence) + 1 + inBlock}:${character + 1}: ${message}`
          : `${where} (prelude of ${relative(scratch, file.fileName)}): ${message}`;
      });
    expect(problems).toEqual([]);
  });
});
