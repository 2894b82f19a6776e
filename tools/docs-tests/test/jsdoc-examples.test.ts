// The `@example` of every public declaration (what a package entry exports, and its
// members) type-checks against the packages; internal helpers carry none (an example is
// documentation for users, and an unchecked one drifts).
import { rm } from 'node:fs/promises';
import { afterAll, describe, expect, it } from 'vitest';
import { checkExamples } from '../src/check-examples.js';
import { jsdocExamples, packageEntries, type JsdocExample } from '../src/jsdoc-examples.js';
import { repositoryFile } from '../src/markdown-blocks.js';

const scratch = repositoryFile('tools/docs-tests/.typecheck/examples/');
const relative = (example: JsdocExample) =>
  `${example.file.replace(repositoryFile(''), '')}:${example.line} ${example.name}`;

afterAll(() => rm(scratch, { recursive: true, force: true }));

describe('JSDoc examples', () => {
  const examples = jsdocExamples();

  it('type-checks the example of every public declaration', () => {
    const public_ = examples.filter((example) => example.entry);
    expect(public_.length).toBeGreaterThan(200);
    expect(checkExamples(public_, scratch)).toEqual([]);
  });

  it('has no examples on internal helpers', () => {
    expect(examples.filter((example) => !example.entry).map(relative)).toEqual([]);
  });

  it('finds a broken example (the check itself works)', () => {
    const engine = packageEntries().find((entry) => entry.specifier === '@programrun/engine')!;
    const example = (code: string): JsdocExample => ({
      file: engine.file,
      line: 1,
      name: 'selfTest',
      code,
      entry: engine,
    });
    const problems = checkExamples(
      [
        example("await engine.createRunn(scope, { scenario_id: 'x', inputs: {} });\n"),
        example('const ids = seededIds(somethingUndefined);\n'),
      ],
      `${scratch}self-test/`,
    );
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(/Property 'createRunn' does not exist on type 'Engine'/);
  });
});
