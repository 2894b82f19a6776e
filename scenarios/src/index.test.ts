import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { scenarioJsonSchema } from '@programrun/dsl';
import { loadScenarioDirectory } from '@programrun/dsl/node';
import { catalogueScenarioIds, scenarioSchemaFile, scenariosDirectory } from './index.js';

describe('@programrun/scenarios', () => {
  it('names the directory of the seven catalogue scenarios, all of which load', async () => {
    const yaml = (await readdir(scenariosDirectory)).filter((name) => name.endsWith('.yaml'));
    expect(yaml.sort()).toEqual(catalogueScenarioIds.map((id) => `${id}.yaml`));
    const { scenarios, problems } = await loadScenarioDirectory(scenariosDirectory);
    expect(problems).toEqual([]);
    expect(scenarios.map((scenario) => scenario.id)).toEqual([...catalogueScenarioIds]);
  });

  it('ships the current scenario JSON Schema, which every scenario names on its first line', async () => {
    expect(JSON.parse(await readFile(scenarioSchemaFile, 'utf8'))).toEqual(scenarioJsonSchema());
    for (const id of catalogueScenarioIds) {
      const text = await readFile(join(scenariosDirectory, `${id}.yaml`), 'utf8');
      expect(text.split('\n')[0]).toBe('# yaml-language-server: $schema=./scenario.schema.json');
    }
  });
});
