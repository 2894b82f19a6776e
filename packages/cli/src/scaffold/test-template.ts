/**
 * The property test scaffolded next to a new scenario: one line registering the whole
 * property suite of `@programrun/testing` (`scenarioSuite`) for that file, one vitest
 * test per property.
 */
export function testTemplate(scenarioFile: string): string {
  return `// The property suite of ${scenarioFile} (needs vitest and @programrun/testing):
// one test per property; \`programrun check ${scenarioFile}\` runs the same checks.
import { scenarioSuite } from '@programrun/testing';

await scenarioSuite(new URL('./${scenarioFile}', import.meta.url));
`;
}
