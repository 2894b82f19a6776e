import { access, mkdir, writeFile } from 'node:fs/promises';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { FAMILIES, loadScenario, type Family } from '@programrun/dsl';
import { scenarioSchemaFile } from '@programrun/scenarios';
import { CommandFailure } from '../command.js';
import { parseOptions, stringOption } from '../parse-options.js';
import { scenarioTemplate } from '../scaffold/scenario-template.js';
import { testTemplate } from '../scaffold/test-template.js';
import { UsageError } from '../usage-error.js';
import { EXIT, type Output } from './verify.js';

const USAGE = `usage: programrun new <name> [--dir <directory>] [--family ${FAMILIES.join('|')}]`;
const NAME = /^[a-z][a-z0-9]*(-[a-z0-9]+)*$/;
const SCHEMA_IN_NODE_MODULES = join(
  'node_modules',
  '@programrun',
  'scenarios',
  'scenario.schema.json',
);

const exists = (path: string) =>
  access(path).then(
    () => true,
    () => false,
  );

/**
 * The `$schema` of the YAML language server line, a path that resolves on this machine: the
 * directory's own `scenario.schema.json` (the catalogue's), else the one of
 * `@programrun/scenarios` in the nearest enclosing `node_modules`, relative to `directory`,
 * else the copy this CLI depends on, by absolute path.
 */
async function schemaReference(directory: string): Promise<string> {
  const target = resolve(directory);
  const relativeTo = (file: string) => relative(target, file).split(sep).join('/');
  if (await exists(join(target, 'scenario.schema.json'))) return './scenario.schema.json';
  for (let current = target; ; current = dirname(current)) {
    if (await exists(join(current, SCHEMA_IN_NODE_MODULES)))
      return relativeTo(join(current, SCHEMA_IN_NODE_MODULES));
    if (dirname(current) === current) return scenarioSchemaFile.split(sep).join('/');
  }
}

/**
 * `programrun new <name>`: scaffolds `<dir>/<name>@v1.yaml`, a minimal valid scenario
 * (one stage with a check, an approval and a handoff, example inputs), and
 * `<dir>/<name>.test.ts`, its property test. Refuses an invalid name or a file that
 * exists (exit 1).
 *
 * @example
 * ```ts
 * await newCommand(['demo-payout', '--family', 'bank_payout'], output);
 * ```
 */
export async function newCommand(argv: readonly string[], output: Output): Promise<number> {
  const { values, positionals } = parseOptions(argv, {
    dir: { type: 'string' },
    family: { type: 'string' },
    help: { type: 'boolean' },
  });
  if (values.help) {
    output.out(USAGE);
    return EXIT.ok;
  }
  if (positionals.length !== 1) throw new UsageError(USAGE);
  const name = positionals[0]!;
  const directory = stringOption(values, 'dir', 'scenarios');
  const family = stringOption(values, 'family', 'bank_payout');
  if (!(FAMILIES as readonly string[]).includes(family))
    throw new UsageError(`--family must be one of ${FAMILIES.join(', ')}, not "${family}"`);
  if (!NAME.test(name))
    throw new CommandFailure(
      `"${name}" is not a scenario name: use kebab-case (lower-case letters and digits joined by hyphens, starting with a letter), e.g. demo-payout`,
    );

  const scenarioFile = join(directory, `${name}@v1.yaml`);
  const testFile = join(directory, `${name}.test.ts`);
  for (const file of [scenarioFile, testFile])
    if (await exists(file)) throw new CommandFailure(`${file} already exists; nothing was written`);

  const text = scenarioTemplate({
    name,
    family: family as Family,
    schema: await schemaReference(directory),
  });
  const loaded = loadScenario(text, { file: scenarioFile });
  if (!loaded.ok) throw new Error(`the scaffold does not load: ${loaded.problems[0]!.message}`);

  await mkdir(directory, { recursive: true });
  await writeFile(scenarioFile, text, { flag: 'wx' });
  await writeFile(testFile, testTemplate(`${name}@v1.yaml`), { flag: 'wx' });
  output.out(`Created ${scenarioFile} (${loaded.scenario.id} ${loaded.scenario.digest})`);
  output.out(`Created ${testFile}`);
  output.out('');
  output.out('Next:');
  output.out(`  programrun validate ${scenarioFile}`);
  output.out(`  programrun simulate ${scenarioFile}`);
  output.out(`  programrun check ${scenarioFile}`);
  return EXIT.ok;
}
