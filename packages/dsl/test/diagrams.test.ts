import { readFileSync, readdirSync } from 'node:fs';
import { DOMParser, onErrorStopParsing, type Element } from '@xmldom/xmldom';
import fc from 'fast-check';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import {
  buildFlowGraph,
  compile,
  diagramModel,
  loadScenario,
  scenarioMermaid,
  scenarioSchema,
  scenarioSvg,
  type LoadedScenario,
  type ScenarioDefinition,
} from '../src/index.js';

const directory = new URL('../../../scenarios/', import.meta.url);
const files = readdirSync(directory)
  .filter((name) => name.endsWith('.yaml'))
  .sort();
const load = (name: string): LoadedScenario => {
  const result = loadScenario(readFileSync(new URL(name, directory), 'utf8'));
  if (!result.ok) throw new Error(`${name} does not load`);
  return result.scenario;
};

/** Parses XML strictly: any error fails (warnings such as a U+FFFD in a title do not). */
function parseXml(text: string): Element {
  const document = new DOMParser({ onError: onErrorStopParsing }).parseFromString(
    text,
    'image/svg+xml',
  );
  return document.documentElement!;
}

const elements = (root: Element, name: string): Element[] =>
  Array.from(root.getElementsByTagName(name));

/** A node definition line: id, opening bracket, one quoted label without raw quotes, closing bracket. */
const NODE_LINE =
  /^ {2,4}((?:step|ending)_[a-z0-9_]+|run_start)(\(\(\(|\(\[|\[\[|\[\/|\{\{|\(\(|\{)"[^"\n]*"(\)\)\)|\]\)|\]\]|\/\]|\}\}|\)\)|\})$/;
const EDGE_LINE =
  /^ {2}((?:step|ending)_[a-z0-9_]+|run_start) (-->|-\.->|-\.-)(\|"[^"\n]*"\|)? ((?:step|ending)_[a-z0-9_]+)$/;
const OTHER_LINE =
  /^(flowchart TD| {2}subgraph [a-z0-9_]+\["[^"\n]*"\]| {4}direction TB| {2}end| {2}classDef .+| {2}class [a-z0-9_,]+ [a-z]+)$/;

/** Checks every line of a Mermaid text against the shapes the renderer may write. */
function mermaidProblems(text: string): string[] {
  return text
    .trimEnd()
    .split('\n')
    .filter((line) => !NODE_LINE.test(line) && !EDGE_LINE.test(line) && !OTHER_LINE.test(line));
}

function expectDiagrams(definition: ScenarioDefinition): void {
  const graph = buildFlowGraph(definition);
  const model = diagramModel(definition);
  const mermaid = scenarioMermaid(definition);
  expect(mermaidProblems(mermaid)).toEqual([]);
  expect(mermaid.startsWith('flowchart TD\n')).toBe(true);
  const defined = mermaid.split('\n').flatMap((line) => NODE_LINE.exec(line)?.[1] ?? []);
  expect(new Set(defined).size).toBe(defined.length);
  expect(defined.filter((id) => id.startsWith('step_')).sort()).toEqual(
    [...graph.steps.keys()].map((id) => `step_${id}`).sort(),
  );
  const subgraphs = mermaid.split('\n').filter((line) => line.startsWith('  subgraph '));
  expect(subgraphs.length).toBe(graph.stages.length + (graph.compensations.length > 0 ? 1 : 0));
  // Every flow edge of the graph is drawn, between drawn nodes.
  const drawn = new Set(
    mermaid.split('\n').flatMap((line) => {
      const match = EDGE_LINE.exec(line);
      return match ? [`${match[1]} ${match[4]}`] : [];
    }),
  );
  const node = (target: string) =>
    ['complete', 'fault', 'compensate', 'cancel'].includes(target)
      ? `ending_${target}`
      : `step_${target}`;
  for (const step of graph.steps.values()) {
    for (const edge of step.outgoing)
      expect(drawn).toContain(`${node(edge.from)} ${node(edge.to)}`);
  }
  for (const id of drawn) for (const end of id.split(' ')) expect(defined).toContain(end);

  const svg = scenarioSvg(definition);
  expect(svg).not.toMatch(/NaN|undefined|Infinity/);
  const root = parseXml(svg);
  expect(root.tagName).toBe('svg');
  const groups = elements(root, 'g');
  const steps = groups.flatMap((group) => group.getAttribute('data-step') ?? []);
  expect(steps.sort()).toEqual([...graph.steps.keys()].sort());
  const edges = groups.filter((group) => group.getAttribute('class') === 'edge');
  expect(
    edges.map((edge) => `${edge.getAttribute('data-from')} ${edge.getAttribute('data-to')}`),
  ).toEqual(model.edges.map((edge) => `${edge.from} ${edge.to}`));
  for (const edge of edges)
    expect(elements(edge, 'path')[0]!.getAttribute('d')).toMatch(
      /^M[-\d.]+,[-\d.]+( L[-\d.]+,[-\d.]+)+$/,
    );
  const clusters = groups.filter((group) => group.getAttribute('class') === 'cluster');
  expect(clusters.length).toBe(model.clusters.length);
}

describe('scenario diagrams', () => {
  describe.each(files)('%s', (name) => {
    it('draws every stage, step and edge in Mermaid and in well-formed SVG', () => {
      expectDiagrams(load(name).definition);
    });

    it('is deterministic and the same from a definition, a loaded or a compiled scenario', () => {
      const loaded = load(name);
      const compiled = compile(loaded);
      expect(scenarioMermaid(loaded)).toBe(scenarioMermaid(loaded.definition));
      expect(scenarioMermaid(compiled)).toBe(scenarioMermaid(load(name)));
      expect(scenarioSvg(compiled)).toBe(scenarioSvg(load(name).definition));
    });
  });

  it('labels edges by kind and route alternative, shapes waits apart, draws compensations in their own subgraph', () => {
    const mermaid = scenarioMermaid(load('bank-payout@v1.yaml'));
    expect(mermaid).toContain(
      '  step_select_rail -->|"local_clearing / sepa_instant / sepa_credit_transfer / swift"| step_execute_payout',
    );
    expect(mermaid).toContain('  step_execute_payout -.->|"timeout"| ending_fault');
    expect(mermaid).toContain('  step_submit_instruction -.->|"reject"| ending_cancel');
    expect(mermaid).toContain('  step_hold_funds -.-|"compensated by"| step_release_hold');
    expect(mermaid).toContain(
      '    step_release_approval(["Two checkers release the payout<br/><i>approval</i>"])',
    );
    expect(mermaid).toContain(
      '    step_hold_funds[["Hold the payout amount on the client balance<br/><i>handoff</i>"]]',
    );
    expect(mermaid).toContain('    step_select_rail{"Choose the payment rail<br/><i>route</i>"}');
    expect(mermaid).toContain(
      '  subgraph compensations["Compensations"]\n    direction TB\n    step_release_hold[[',
    );
    expect(mermaid).toContain('  ending_complete((("complete")))');
    expect(scenarioMermaid(load('reserve-usd-cycle@v1.yaml'))).toContain(
      '    step_redemption_window(("Wait for the daily redemption window<br/><i>wait</i>"))',
    );
    const skipping = scenarioSchema.parse(
      parse(
        readFileSync(new URL('fixtures/broken/invariant-response.yaml', import.meta.url), 'utf8'),
      ),
    );
    expect(scenarioMermaid(skipping)).toContain('  step_reconcile -.->|"skip"| ending_complete');
  });

  it('escapes titles that look like markup in both renderers', () => {
    const definition = scenarioSchema.parse({
      ...load('wallet-delivery@v1.yaml').definition,
      title: 'Quotes " & <tags> # here',
      stages: [
        {
          id: 'only',
          title: 'A "stage" <b>bold</b> & #1 `md`',
          steps: [
            {
              id: 'note',
              kind: 'record',
              title: '<script>"x"</script> & #quot;',
              record: 'note',
              data: {},
            },
          ],
        },
      ],
      legs: [],
      invariants: [],
      controls: [],
    });
    const mermaid = scenarioMermaid(definition);
    expect(mermaid).toContain(
      'subgraph stage_only["A #quot;stage#quot; #lt;b#gt;bold#lt;/b#gt; & #35;1 #96;md#96;"]',
    );
    expect(mermaid).toContain(
      'step_note[/"#lt;script#gt;#quot;x#quot;#lt;/script#gt; & #35;quot;<br/><i>record</i>"/]',
    );
    const svg = scenarioSvg(definition);
    expect(svg).toContain('>&lt;script&gt;&quot;x&quot;&lt;/script&gt; &amp;</tspan>');
    expectDiagrams(definition);
  });
});

/** A random small scenario whose steps jump anywhere: valid for the schema, maybe not for the loader. */
const titleArbitrary = fc.oneof(
  fc.string({ unit: 'grapheme', minLength: 1, maxLength: 40 }),
  fc.constantFrom(
    '"',
    '<b>',
    '&amp;',
    '#',
    ']]>',
    'end',
    'a\u0001b',
    'line\nbreak',
    '  ',
    '\uFFFD',
    '\uD800',
  ),
);
const scenarioArbitrary = fc
  .array(fc.integer({ min: 1, max: 3 }), { minLength: 1, maxLength: 3 })
  .chain((stageSizes) => {
    const ids = stageSizes.flatMap((size, stage) =>
      Array.from({ length: size }, (_, step) => `s${stage}_${step}`),
    );
    const target = fc.constantFrom(...ids, 'complete', 'fault', 'compensate', 'cancel');
    const step = (id: string) =>
      fc.oneof(
        fc.record({
          id: fc.constant(id),
          kind: fc.constant('record'),
          title: titleArbitrary,
          record: fc.constant('note'),
          data: fc.constant({}),
          next: fc.option(target, { nil: undefined }),
        }),
        fc.record({
          id: fc.constant(id),
          kind: fc.constant('handoff'),
          title: titleArbitrary,
          party: fc.constant('bank'),
          action: fc.constant('pay.out'),
          timeout: fc.constant('PT5M'),
          on_reject: target,
          on_fail: target,
          compensate: fc.constant('undo'),
        }),
        fc.record({
          id: fc.constant(id),
          kind: fc.constant('approval'),
          title: titleArbitrary,
          approvers: fc.constant(['ops']),
          expires: fc.constant('PT1H'),
          on_timeout: target,
          when: fc.option(fc.constant('true'), { nil: undefined }),
        }),
        fc.record({
          id: fc.constant(id),
          kind: fc.constant('wait'),
          title: titleArbitrary,
          duration: fc.constant('PT1M'),
        }),
        fc.record({
          id: fc.constant(id),
          kind: fc.constant('check'),
          title: titleArbitrary,
          rules: fc.constant(['r']),
          on_fail: target,
        }),
        fc.record({
          id: fc.constant(id),
          kind: fc.constant('route'),
          title: titleArbitrary,
          alternatives: fc.tuple(target, target).map(([a, b]) => [
            { id: 'left', when: 'true', reason: 'left', next: a },
            { id: 'right', when: 'true', reason: 'right', next: b },
          ]),
        }),
      );
    return fc.record({
      stages: fc.tuple(
        ...stageSizes.map((size, stage) =>
          fc.record({
            id: fc.constant(`stage_${stage}`),
            title: titleArbitrary,
            steps: fc.tuple(
              ...Array.from({ length: size }, (_, index) => step(`s${stage}_${index}`)),
            ),
          }),
        ),
      ),
      compensations: fc.constant([
        { id: 'undo', kind: 'record', title: 'Undo', record: 'undo', data: {} },
      ]),
    });
  })
  .map((parts) =>
    scenarioSchema.parse({
      scenario: 'random',
      version: 'v1',
      title: 'Random',
      summary: 'Random',
      family: 'bank_payout',
      asset_track: 'public_demo',
      inputs: { type: 'object' },
      example_inputs: {},
      parties: {
        bank: { name: 'Bank', role: 'banking' },
        ops: { name: 'Ops', role: 'operations', kind: 'operator' },
      },
      ...parts,
    }),
  );

describe('diagrams of random scenarios', () => {
  it('draw every step and edge, escape every title and stay deterministic', () => {
    fc.assert(
      fc.property(scenarioArbitrary, (definition) => {
        expectDiagrams(definition);
        expect(scenarioSvg(definition)).toBe(scenarioSvg(structuredClone(definition)));
        expect(scenarioMermaid(definition)).toBe(scenarioMermaid(structuredClone(definition)));
      }),
      { numRuns: 60 },
    );
  });
});
