import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { formatProblem } from '../src/index.js';
import { loadScenarioDirectory } from '../src/node.js';
import { diagramPages, DIAGRAMS_DIR, REGENERATE_COMMAND } from '../scripts/diagram-pages.js';

const root = new URL('../../../', import.meta.url);
const directory = new URL(`${DIAGRAMS_DIR}/`, root);

describe(`${DIAGRAMS_DIR}/ (generated scenario diagrams)`, () => {
  it(`is up to date with scenarios/ (else run ${REGENERATE_COMMAND})`, async () => {
    const { scenarios, problems } = await loadScenarioDirectory(
      new URL('scenarios/', root).pathname,
    );
    expect(problems.map(formatProblem)).toEqual([]);
    const pages = diagramPages(scenarios);
    expect([...pages.keys()]).toEqual([
      ...scenarios.map((scenario) => `${scenario.id}.md`),
      'README.md',
    ]);
    for (const [name, expected] of pages) {
      const file = new URL(name, directory);
      const committed = existsSync(file) ? readFileSync(file, 'utf8') : '(missing)';
      expect(committed, `${DIAGRAMS_DIR}/${name} is stale: run ${REGENERATE_COMMAND}`).toBe(
        expected,
      );
    }
    const extra = readdirSync(directory).filter((name) => !pages.has(name));
    expect(extra, `${DIAGRAMS_DIR}/ has pages of no scenario: run ${REGENERATE_COMMAND}`).toEqual(
      [],
    );
  });

  it('gives every scenario a page with its title, summary and a Mermaid flowchart, linked from the index', async () => {
    const { scenarios } = await loadScenarioDirectory(new URL('scenarios/', root).pathname);
    const pages = diagramPages(scenarios);
    for (const scenario of scenarios) {
      const page = pages.get(`${scenario.id}.md`)!;
      expect(page).toContain(`\n# ${scenario.definition.title}\n`);
      expect(page).toContain(scenario.definition.summary);
      expect(page).toMatch(/\n```mermaid\nflowchart TD\n[\s\S]+\n```\n$/);
      expect(pages.get('README.md')).toContain(`](${scenario.id}.md)`);
    }
  });
});
