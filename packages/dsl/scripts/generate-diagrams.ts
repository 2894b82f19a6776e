// Writes docs/scenarios/<scenario id>.md (title, summary, Mermaid flowchart) for every
// scenario under scenarios/, and docs/scenarios/README.md, the index.
// Usage: pnpm --filter @programrun/dsl generate:diagrams
import { mkdir, writeFile } from 'node:fs/promises';
import { formatProblem } from '../src/index.js';
import { loadScenarioDirectory } from '../src/node.js';
import { diagramPages, DIAGRAMS_DIR } from './diagram-pages.js';

const root = new URL('../../../', import.meta.url);
const { scenarios, problems } = await loadScenarioDirectory(new URL('scenarios/', root).pathname);
if (problems.length > 0) {
  console.error(problems.map(formatProblem).join('\n'));
  process.exit(1);
}
const directory = new URL(`${DIAGRAMS_DIR}/`, root);
await mkdir(directory, { recursive: true });
for (const [name, text] of diagramPages(scenarios)) {
  await writeFile(new URL(name, directory), text);
  console.log(`wrote ${DIAGRAMS_DIR}/${name}`);
}
