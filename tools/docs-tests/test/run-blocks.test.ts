// TypeScript blocks marked `<!-- docs-test: run -->` are run (with tsx, from the repository
// root, against the packages' sources), and every `console.log(…); // <expected>` prints what
// its comment says, in order. Ids, hashes and times are compared by their form.
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { codeBlocks, repositoryFile } from '../src/markdown-blocks.js';
import { normalize } from '../src/match-shown.js';
import { mustRun } from '../src/run-command.js';

const GUIDES = ['docs/guides/embedding.md'];
const scratch = repositoryFile('tools/docs-tests/.typecheck/run/');

afterAll(() => rm(scratch, { recursive: true, force: true }));

const blocks = GUIDES.flatMap((guide) =>
  codeBlocks(repositoryFile(guide))
    .filter((block) => block.language === 'ts' && block.directive?.startsWith('run'))
    .map((block) => ({ where: `${guide}:${block.line}`, block })),
);

describe('TypeScript blocks the guides run', () => {
  it('has some', () => expect(blocks.length).toBeGreaterThan(0));

  it.each(blocks.map(({ where, block }) => [where, block] as const))(
    '%s prints what its comments say',
    async (where, block) => {
      const expected = block.code
        .split('\n')
        .filter((line) => /^\s*console\.log\(/.test(line) && line.includes('); // '))
        .map((line) => line.slice(line.lastIndexOf('); // ') + '); // '.length).trim());
      expect(expected.length, `${where} has console.log lines with // comments`).toBeGreaterThan(0);
      await mkdir(scratch, { recursive: true });
      const file = join(scratch, `${where.replace(/[/.:]/g, '_')}.ts`);
      await writeFile(file, block.code);
      const { stdout } = await mustRun(
        process.execPath,
        ['--conditions=@programrun/source', '--import', 'tsx', file],
        { cwd: repositoryFile('.') },
      );
      const printed = stdout
        .trim()
        .split('\n')
        .map((line) => normalize(line.trim()));
      expect(printed, where).toEqual(expected.map((line) => normalize(line)));
    },
  );
});
