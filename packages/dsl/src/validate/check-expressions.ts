import type { Problem } from '../problem.js';
import type { YamlSource } from '../source/yaml-source.js';
import type { ExpressionSite } from '../expressions/expression-sites.js';
import { safeCheck } from '../expressions/scenario-environment.js';
import type { Environment } from '@marcbachmann/cel-js';

/** What a site of each expected type must be, in the words of a problem. */
const MISMATCH: Readonly<Record<'bool' | 'Money' | 'string', string>> = {
  bool: 'condition must be a bool',
  Money: 'leg amount must be Money (wrap a decimal string in money(…))',
  string: "leg currency must be a string (a literal needs quotes, e.g. 'EUR')",
};

/**
 * Type-checks every CEL expression against the scenario's environment; conditions must
 * be `bool`, leg amounts `Money` and leg currencies `string` (`dyn` passes and is checked
 * when evaluated). Problems point at the offending character inside the YAML scalar.
 */
export function checkExpressions(
  sites: readonly ExpressionSite[],
  environment: Environment,
  source: YamlSource,
): Problem[] {
  const problems: Problem[] = [];
  for (const site of sites) {
    const result = safeCheck(environment, site.source);
    if (!result.valid) {
      problems.push(
        source.problemAt(
          'invalid_expression',
          result.message,
          site.path,
          source.locateInScalar(site.path, result.offset),
        ),
      );
    } else if (site.expects !== 'any' && result.type !== site.expects && result.type !== 'dyn') {
      problems.push(
        source.problemAt(
          'invalid_expression',
          `${MISMATCH[site.expects]}, but this is ${result.type}`,
          site.path,
        ),
      );
    }
  }
  return problems;
}
