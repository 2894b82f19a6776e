// axe-core on a page: no serious or critical violation, else the test fails listing them.
import { AxeBuilder } from '@axe-core/playwright';
import type { Page } from 'playwright-core';

type AxeResults = Awaited<ReturnType<AxeBuilder['analyze']>>;

/** The serious and critical violations on `page`, one readable line per node. */
export async function seriousViolations(page: Page): Promise<string[]> {
  const results: AxeResults = await new AxeBuilder({ page }).analyze();
  return results.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .flatMap((violation) =>
      violation.nodes.map(
        (node) =>
          `${violation.impact ?? ''} ${violation.id}: ${violation.help} at ${node.target.join(' ')}: ${node.failureSummary ?? ''}`,
      ),
    );
}
