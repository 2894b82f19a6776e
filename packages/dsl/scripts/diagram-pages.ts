// The pages of docs/scenarios/: one per scenario (title, summary, Mermaid flowchart) and
// a README index. Pure, so the freshness test renders them in memory.
import { scenarioMermaid, type LoadedScenario } from '../src/index.js';

/**
 * Where the pages go, relative to the repository root.
 *
 * @example
 * ```ts
 * new URL(`${DIAGRAMS_DIR}/README.md`, root);
 * ```
 */
export const DIAGRAMS_DIR = 'docs/scenarios';
/**
 * What to run when a page is stale.
 *
 * @example
 * ```ts
 * expect(committed, `stale: run ${REGENERATE_COMMAND}`).toBe(expected);
 * ```
 */
export const REGENERATE_COMMAND = 'pnpm --filter @programrun/dsl generate:diagrams';

const banner = (from: string): string =>
  `<!-- Generated from ${from} by \`${REGENERATE_COMMAND}\`; do not edit. -->`;

const LEGEND = [
  '- Hexagon: `check`, policy rules (a review waits for reviewers).',
  '- Parallelogram: `record`, a fact recorded for evidence.',
  '- Rhombus: `route`, the first eligible alternative; its edges name the alternatives.',
  '- Stadium: `approval`, waits for people.',
  '- Subroutine (double sides): `handoff`, waits for a partner.',
  '- Circle: `wait`, waits for a timer.',
  '- Double circle: an ending, `complete`, `fault`, `compensate` or `cancel`.',
  '- Solid arrow: success, or a route alternative.',
  '- Dotted arrow: a skip (`when` was false) or a failure path, labelled by kind.',
  '- Dotted line labelled `compensated by`: a handoff and the compensation its confirmation registers.',
];

function page(scenario: LoadedScenario): string {
  const { definition } = scenario;
  return [
    banner(`scenarios/${scenario.id}.yaml`),
    '',
    `# ${definition.title}`,
    '',
    `\`${scenario.id}\` · family \`${definition.family}\` · asset track \`${definition.asset_track}\``,
    '',
    definition.summary.trim(),
    '',
    '```mermaid',
    scenarioMermaid(scenario).trimEnd(),
    '```',
    '',
  ].join('\n');
}

function index(scenarios: readonly LoadedScenario[]): string {
  return [
    banner('scenarios/*.yaml'),
    '',
    '# Scenario diagrams',
    '',
    'The flow of every scenario of the catalogue as a Mermaid flowchart: one box per stage',
    'and one for the compensations, one node per step.',
    '',
    ...scenarios.map(
      (scenario) =>
        `- [${scenario.definition.title}](${scenario.id}.md) (\`${scenario.id}\`, ${scenario.definition.family})`,
    ),
    '',
    '## Legend',
    '',
    ...LEGEND,
    '',
  ].join('\n');
}

/**
 * Every page of docs/scenarios/ by file name: `<scenario id>.md` per scenario and
 * `README.md`, in id order.
 *
 * @example
 * ```ts
 * const { scenarios } = await loadScenarioDirectory('scenarios');
 * diagramPages(scenarios).get('README.md'); // '<!-- Generated … -->\n\n# Scenario diagrams …'
 * ```
 */
export function diagramPages(scenarios: readonly LoadedScenario[]): Map<string, string> {
  const sorted = [...scenarios].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  return new Map([
    ...sorted.map((scenario): [string, string] => [`${scenario.id}.md`, page(scenario)]),
    ['README.md', index(sorted)],
  ]);
}
